/**
 * Serving throughput: a 10 KiB and a 100 MiB file through Upshot's share link, beside nginx
 * (one worker, sendfile) serving the same bytes from the same disk, both loaded by wrk over
 * loopback. Needs nginx and wrk (apt-get install nginx-light wrk).
 *   npm run serve -w bench
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ENV, fmt, makeRandomFile, MiB, signInToken, startServer } from './support/common.ts';

const DURATION = process.env.BENCH_SECONDS ?? '8';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function wrk(url: string, connections: number): { rps: number; mibps: number } {
  const out = execFileSync(
    'wrk',
    ['-t1', `-c${connections}`, `-d${DURATION}s`, '--timeout', '10s', url],
    {
      encoding: 'utf8',
    },
  );
  // Errors or short answers would inflate the figures: refuse to report them.
  const bad =
    /Non-2xx or 3xx responses:.*/.exec(out) ??
    /Socket errors: connect [1-9].*|Socket errors: .*(read|write) [1-9].*/.exec(out);
  if (bad) throw new Error(`wrk against ${url}: ${bad[0]}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const m = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(out);
  const unit = { B: 1 / MiB, KB: 1 / 1024, MB: 1, GB: 1024 }[m?.[2] ?? 'MB'] ?? 1;
  return { rps, mibps: Number(m?.[1] ?? NaN) * unit };
}

async function startNginx(root: string, port: number) {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-nginx-'));
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${prefix}/body; proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fcgi; uwsgi_temp_path ${prefix}/uwsgi; scgi_temp_path ${prefix}/scgi;
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const child = spawn('nginx', ['-p', prefix, '-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/small.bin`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return async () => {
    child.kill('SIGQUIT');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(prefix, { recursive: true, force: true });
  };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-serve-'));
makeRandomFile(path.join(work, 'small.bin'), 10 * 1024);
makeRandomFile(path.join(work, 'large.bin'), 100 * MiB);
// nginx's worker runs as an unprivileged user.
fs.chmodSync(work, 0o755);
for (const f of fs.readdirSync(work)) fs.chmodSync(path.join(work, f), 0o644);

const server = await startServer(BENCH_ENV);
const nginxPort = await freePort();
const nginxBase = `http://127.0.0.1:${nginxPort}`;
const stopNginx = await startNginx(work, nginxPort);
try {
  const token = await signInToken(server.url);
  const codes: Record<string, string> = {};
  for (const name of ['small.bin', 'large.bin']) {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(path.join(work, name))]), name);
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    codes[name] = ((await res.json()) as { upload: { shortCode: string } }).upload.shortCode;
  }
  console.log(`\nServing over loopback, wrk ${DURATION}s per row (ratio to nginx in the same run)`);
  for (const [name, connections, label] of [
    ['small.bin', 32, '10 KiB'],
    ['large.bin', 4, '100 MiB'],
  ] as const) {
    const ref = wrk(`${nginxBase}/${name}`, connections);
    const ours = wrk(`${server.url}/${codes[name]}`, connections);
    console.log(
      `  ${label.padEnd(8)} nginx ${fmt(ref.rps, 0).padStart(7)} req/s ${fmt(ref.mibps, 0).padStart(6)} MiB/s | ` +
        `Upshot ${fmt(ours.rps, 0).padStart(7)} req/s ${fmt(ours.mibps, 0).padStart(6)} MiB/s | ` +
        `${fmt((ours.rps / ref.rps) * 100, 0)}% of nginx`,
    );
  }
} finally {
  await stopNginx();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
