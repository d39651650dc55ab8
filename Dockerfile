# Upshot in a container: the same build `npm start` does, run with plain node.
#
#   docker build -t upshot .
#   docker run -d --name upshot -p 3000:3000 -v upshot-data:/data \
#     -e PUBLIC_URL=https://files.example.com upshot
#
# Settings are the environment variables of the README; docs/DEPLOYMENT.md has the rest.

# Node 24 LTS, on which Upshot is built and tested; 20.19 and later run it too.
ARG NODE_VERSION=24

# --- build: every dependency and the toolchain (python3, make, g++ for native modules) ---
FROM node:${NODE_VERSION}-bookworm AS build
WORKDIR /app
# The workspace manifests first, so the dependency layer is reused until they change.
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci
COPY . .
# What `npm start` does before it runs the server: web/dist, then server/dist (main.js, the
# hash worker, the chunks loaded on use and the uploader templates beside them).
RUN node --input-type=module -e "import { ensureWebBuilt } from './scripts/web-build.mjs'; import { ensureServerBuilt } from './scripts/server-build.mjs'; ensureWebBuilt(); await ensureServerBuilt();"

# --- deps: the server's production dependencies only, native modules built for bookworm ---
FROM node:${NODE_VERSION}-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# better-sqlite3-node20 is the SQLite driver for Node 20 only (server/src/db/database.ts).
RUN npm ci --omit=dev --workspace=server \
  && if node -e "process.exit(process.versions.napi >= 10 ? 0 : 1)"; then \
    rm -rf node_modules/better-sqlite3-node20; fi

# --- runtime ---
FROM node:${NODE_VERSION}-bookworm-slim
# ffmpeg makes video thumbnails (from local files, or from the object store over https, hence
# the CA certificates); nothing else is needed at run time.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Owned by root and read-only to the server; only /data is written.
COPY --from=deps /app ./
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/web/dist web/dist

# DATA_DIR: the SQLite database, the generated secret key, the files and in-flight uploads
# (with PostgreSQL, S3 and SECRET_KEY set, nothing is written there).
ENV DATA_DIR=/data \
  PORT=3000
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000

# Liveness: the process answers (no database call). curl is not in slim images.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The server drains on SIGTERM for up to SHUTDOWN_TIMEOUT_MS (10 s by default), plus up to 5 s
# to close; give `docker stop` more than that (docker stop -t 30, compose stop_grace_period).
STOPSIGNAL SIGTERM
# The options `npm start` gives Node (scripts/server-build.mjs, serverNodeArgs).
CMD ["node", "--enable-source-maps", "server/dist/main.js"]
