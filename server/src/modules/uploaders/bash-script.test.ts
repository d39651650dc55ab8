/**
 * The bash upload script as a user gets it: downloaded from a listening server, run with bash
 * against that server, its links fetched back and compared byte for byte.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { CHUNK_SIZE, MAX_SIMPLE_UPLOAD_BYTES } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { partRows } from '../../../test/chunked-uploads.ts';
import {
  bashScriptUser,
  freePort,
  hashDownload,
  killGroup,
  startLiveServer,
  startProcess,
  tempDir,
  writeRandomFile,
  type LiveServer,
  type ScriptUser as Setup,
} from '../../../test/live-server.ts';
import type { Storage } from '../../storage/storage.ts';

// Every part the storage is asked to write, by session (multipart id) and index, and a gate
// that can hold one part's write (so an interruption lands mid-chunk for sure).
const partWrites = new Map<string, number>();
let holdPart: { index: number; reached: () => void; release: Promise<void> } | null = null;

let server: LiveServer;
let root: string;
beforeAll(async () => {
  server = await startLiveServer({
    wrapStorage: (storage: Storage): Storage => ({
      ...storage,
      async putPart(multipartId: string, key: string, part, body: Readable) {
        const id = `${multipartId}:${part.index}`;
        partWrites.set(id, (partWrites.get(id) ?? 0) + 1);
        const hold = holdPart;
        if (hold && hold.index === part.index) {
          hold.reached();
          await hold.release;
        }
        return storage.putPart(multipartId, key, part, body);
      },
    }),
  });
  root = tempDir('upshot-bash-');
});
afterAll(async () => {
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

// A username that needs the shell's quoting, and would run a command if it were not quoted.
const USERNAME = "o'brien $(touch pwned) `touch pwned`";

/** A user, their script downloaded over HTTP, and a home of their own to run it from. */
const setUp = () =>
  bashScriptUser(server, root, `${USERNAME} ${crypto.randomBytes(3).toString('hex')}`);

function start(s: Setup, args: string[], env: Record<string, string> = {}) {
  return startProcess('bash', [s.script, ...args], { cwd: s.files, env: { ...s.env, ...env } });
}
const run = (s: Setup, args: string[], env: Record<string, string> = {}) =>
  start(s, args, env).done;

function api(s: Setup, method: string, route: string, body?: unknown) {
  return fetch(`${server.url}${route}`, {
    method,
    headers: {
      'x-api-token': s.token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The one link a run printed. */
function onlyLink(stdout: string): string {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

const stateFiles = (s: Setup) => {
  const dir = path.join(s.env.XDG_STATE_HOME, 'upshot');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
};

describe('the bash upload script', () => {
  it('is served with the URL and token filled in, and passes its own help', async () => {
    const s = await setUp();
    const text = fs.readFileSync(s.script, 'utf8');
    expect(text).toContain(`default_url='${server.url}'`);
    expect(text).toContain(`default_token='${s.token}'`);
    expect(text).not.toMatch(/__UPSHOT_[A-Z]+__/);
    const help = await run(s, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`to ${server.url} as ${s.user.username}, prints`);
    for (const option of ['--private', '--public', '--expires WHEN', '--max-views N']) {
      expect(help.stdout).toContain(option);
    }
    expect(help.stdout).toContain('--password-prompt');
    expect(help.stdout).toContain('--name NAME');
    expect(help.stdout).toContain('A FILE of - uploads standard input');
    expect(fs.readdirSync(s.files)).toEqual([]); // nothing in the name ran
    // The template is ASCII, so no locale can change it.
    const template = fs.readFileSync(new URL('./templates/upshot.sh', import.meta.url));
    expect(template.every((b) => b < 0x80)).toBe(true);
  });

  it('uploads a small file, prints its link, and the link serves the same bytes', async () => {
    const s = await setUp();
    // A name with the characters curl's -F syntax treats specially.
    const name = 'photo 1; final,v2.bin';
    const file = path.join(s.files, name);
    const digest = await writeRandomFile(file, 300_000);

    const result = await run(s, [name]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const link = onlyLink(result.stdout);
    expect(link).toMatch(new RegExp(`^${server.url}/[A-Za-z0-9_-]+$`));

    const served = await hashDownload(link);
    expect(served).toEqual({ status: 200, sha256: digest, size: 300_000 });
    const list = (await (await api(s, 'GET', '/api/uploads')).json()) as { uploads: unknown[] };
    expect(list.uploads).toHaveLength(1);
    expect(list.uploads[0]).toMatchObject({ originalFilename: name, url: link });
  });

  it('resumes an interrupted 250 MB upload without sending the stored chunks again', async () => {
    const s = await setUp();
    const size = 250_000_000;
    const file = path.join(s.files, 'big.bin');
    const digest = await writeRandomFile(file, size);
    const totalChunks = Math.ceil(size / CHUNK_SIZE);
    expect(size).toBeGreaterThan(MAX_SIMPLE_UPLOAD_BYTES);
    expect(totalChunks).toBe(5);

    // The first run is killed, with its whole process group, while chunk 2 is on its way
    // (its write held) and chunks 0 and 1 are stored.
    let reached!: () => void;
    const reachedHold = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    holdPart = { index: 2, reached, release: new Promise((resolve) => (release = resolve)) };
    const first = start(s, ['big.bin']);
    let uploadId = '';
    try {
      await vi.waitFor(
        async () => {
          const [state] = stateFiles(s);
          if (!state) throw new Error('no state file yet');
          uploadId = /^upload_id=(.+)$/m.exec(fs.readFileSync(state, 'utf8'))?.[1] ?? '';
          const status = await api(s, 'GET', `/api/chunked-upload/${uploadId}`);
          expect(status.status).toBe(200);
          const { receivedChunks } = (await status.json()) as { receivedChunks: number[] };
          expect(receivedChunks.length).toBeGreaterThanOrEqual(2);
        },
        { timeout: 60_000, interval: 50 },
      );
      await reachedHold;
      killGroup(first.child);
    } finally {
      holdPart = null;
      release();
    }
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    // The server lets go of the chunk whose request died.
    await vi.waitFor(
      async () =>
        expect((await partRows(server.ctx, uploadId)).map((p) => p.state)).toEqual([
          'stored',
          'stored',
        ]),
      { timeout: 30_000, interval: 50 },
    );
    const session = await server.ctx.handle.db
      .selectFrom('chunked_uploads')
      .select('multipart_id')
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    const writes = (i: number) => partWrites.get(`${session.multipart_id}:${i}`) ?? 0;
    const before = [0, 1, 2, 3, 4].map(writes);
    expect(before).toEqual([1, 1, 1, 0, 0]);

    const second = await run(s, ['big.bin']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('Resuming upload: 2 of 5 chunks already on the server');
    // Chunks 0 and 1 were not sent again; 2, 3 and 4 once each.
    expect([0, 1, 2, 3, 4].map(writes)).toEqual([1, 1, 2, 1, 1]);
    const link = onlyLink(second.stdout);
    expect(stateFiles(s)).toEqual([]);

    const served = await hashDownload(link);
    expect(served).toEqual({ status: 200, sha256: digest, size });
    fs.rmSync(file);
  }, 120_000);

  it('follows --private, --public and, without either, the preference', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'hello a\n');
    const publicly = async (args: string[]) => {
      const result = await run(s, [...args, 'a.txt']);
      expect(result.code, result.stderr).toBe(0);
      const link = result.stdout.trim();
      // A private link answers 404 to everyone but its owner.
      expect((await fetch(link, { headers: { 'x-api-token': s.token } })).status).toBe(200);
      return (await fetch(link)).status === 200;
    };
    expect(await publicly([])).toBe(true); // new uploads are public by default
    expect(await publicly(['--private'])).toBe(false);

    const patch = await api(s, 'PATCH', '/api/preferences', { defaultUploadPrivacy: false });
    expect(patch.status).toBe(200);
    expect(await publicly([])).toBe(false);
    expect(await publicly(['--public'])).toBe(true);
  });

  it('refuses a missing file with a clear message, uploads the others, and exits non-zero', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'here.txt'), 'here\n');
    const result = await run(s, ['missing.png', 'here.txt']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('upshot: file not found: missing.png');
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toMatch(new RegExp(`^${server.url}/`));
  });

  it('says the token was refused when the script is out of date', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'hello\n');
    // A new token makes every script downloaded before it stale.
    const renewed = await api(s, 'POST', `/api/users/${s.user.id}/api-token`);
    expect(renewed.status).toBe(200);
    const result = await run(s, ['a.txt']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'upshot: the server refused the API token; download a fresh script from Settings',
    );
  });

  it("passes on the server's message when the quota is full", async () => {
    const s = await setUp();
    await server.ctx.handle.db
      .updateTable('users')
      .set({ disk_quota: 1000 })
      .where('id', '=', s.user.id)
      .execute();
    await writeRandomFile(path.join(s.files, 'big.jpg'), 5000);
    const result = await run(s, ['big.jpg']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('upshot: big.jpg: Storage quota exceeded: 1000 Bytes left');
  });

  it('says when the server cannot be reached (UPSHOT_URL points elsewhere)', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'hello\n');
    // A port nothing listens on.
    const gone = `http://127.0.0.1:${await freePort()}`;
    const result = await run(s, ['a.txt'], { UPSHOT_URL: gone });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`upshot: a.txt: could not reach the server at ${gone}`);
  });
});
