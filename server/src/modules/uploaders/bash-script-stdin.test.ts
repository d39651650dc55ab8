/**
 * The bash upload script reading standard input (`some-command | upshot.sh - --name log.txt`),
 * run as a user runs it: downloaded from a listening server, fed through a real pipe, its
 * links fetched back and compared byte for byte.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_SIMPLE_UPLOAD_BYTES, type Upload } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bashScriptUser,
  hashDownload,
  killGroup,
  sha256,
  startInTerminal,
  startLiveServer,
  startProcess,
  tempDir,
  utf8Header,
  writeRandomFile,
  type LiveServer,
  type ScriptUser as Setup,
} from '../../../test/live-server.ts';
import type { Storage } from '../../storage/storage.ts';

// The chunk index whose writes fail while it is set (a chunked upload that cannot finish), and
// a gate that holds one chunk's write (so an interruption lands mid-upload for sure).
let failPart: number | null = null;
let holdPart: { index: number; reached: () => void; release: Promise<void> } | null = null;

let server: LiveServer;
let root: string;
beforeAll(async () => {
  server = await startLiveServer({
    wrapStorage: (storage: Storage): Storage => ({
      ...storage,
      async putPart(multipartId: string, key: string, part, body: Readable) {
        if (part.index === failPart) throw new Error('the disk is gone (test)');
        const hold = holdPart;
        if (hold && hold.index === part.index) {
          hold.reached();
          await hold.release;
        }
        return storage.putPart(multipartId, key, part, body);
      },
    }),
  });
  root = tempDir('upshot-bash-stdin-');
});
afterAll(async () => {
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const setUp = () => bashScriptUser(server, root, `stdin ${crypto.randomBytes(3).toString('hex')}`);

// `cat INPUT | bash upshot.sh ARGS...`: the script's standard input is a pipe, as after a command.
const PIPE = 'input=$1 script=$2; shift 2; cat -- "$input" | bash "$script" "$@"';

/** Runs the script with the bytes of file `input` (in s.files) piped into it. */
function startPiped(s: Setup, input: string, args: string[]) {
  return startProcess('sh', ['-c', PIPE, 'sh', input, s.script, ...args], {
    cwd: s.files,
    env: s.env,
  });
}
const piped = (s: Setup, input: string, args: string[]) => startPiped(s, input, args).done;

/** The one link a run printed. */
function linkOf(result: { code: number | null; stdout: string; stderr: string }): string {
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

async function uploads(s: Setup): Promise<Upload[]> {
  const res = await fetch(`${server.url}/api/uploads`, { headers: { 'x-api-token': s.token } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { uploads: Upload[] }).uploads;
}
async function uploadAt(s: Setup, link: string): Promise<Upload> {
  const upload = (await uploads(s)).find((u) => u.url === link);
  if (!upload) throw new Error(`no upload has the link ${link}`);
  return upload;
}

const sessionsOf = (s: Setup) =>
  server.ctx.handle.db
    .selectFrom('chunked_uploads')
    .select(['filename', 'status', 'upload_id'])
    .where('user_id', '=', s.user.id)
    .execute();

/** Nothing left behind: no copy of the input in TMPDIR, no state kept for resuming. */
function expectNothingKept(s: Setup) {
  expect(fs.readdirSync(s.env.TMPDIR)).toEqual([]);
  const stateDir = path.join(s.env.XDG_STATE_HOME, 'upshot');
  expect(fs.existsSync(stateDir) ? fs.readdirSync(stateDir) : []).toEqual([]);
}

describe('the bash script, standard input (-)', () => {
  it('uploads a few KiB piped in under --name; the link serves the same bytes', async () => {
    const s = await setUp();
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}: ${'x'.repeat(i % 40)}\n`);
    // Text, then bytes no text tool would pass through unchanged.
    const data = Buffer.concat([Buffer.from(lines.join('')), crypto.randomBytes(2000)]);
    fs.writeFileSync(path.join(s.files, 'input'), data);

    // The order of the example: the option after the file.
    const result = await piped(s, 'input', ['-', '--name', 'build log.txt']);
    const link = linkOf(result);
    expect(result.stderr).toBe('');
    expect(await hashDownload(link)).toEqual({
      status: 200,
      sha256: sha256(data),
      size: data.length,
    });
    expect(await uploadAt(s, link)).toMatchObject({
      originalFilename: 'build log.txt',
      size: data.length,
    });
    expectNothingKept(s);
  });

  it('names standard input stdin-<UTC time>.txt without --name, and names a file with it', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'input'), 'hello from a pipe\n');
    const before = Date.now();
    const link = linkOf(await piped(s, 'input', ['-']));
    const { originalFilename } = await uploadAt(s, link);
    const stamp = /^stdin-(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z\.txt$/.exec(originalFilename);
    expect(stamp, originalFilename).not.toBeNull();
    const [, y, mo, d, h, mi, sec] = stamp ?? [];
    const at = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(Date.now());

    // --name renames a file too (--name=NAME spelling).
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'a file\n');
    const renamed = linkOf(await piped(s, 'input', ['--name=notes.md', 'a.txt']));
    expect(await uploadAt(s, renamed)).toMatchObject({ originalFilename: 'notes.md', size: 7 });
  });

  it('refuses an empty standard input with a clear message, and uploads the other files', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'empty'), '');
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'a file\n');
    const result = await piped(s, 'empty', ['-', 'a.txt']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('upshot: standard input is empty; nothing uploaded\n');
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect((await uploads(s)).map((u) => u.originalFilename)).toEqual(['a.txt']);
    expectNothingKept(s);
  });

  it('refuses - twice, --name with several files, and a --name that is a path', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'input'), 'data\n');
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'a file\n');
    const cases: [string[], string][] = [
      [['-', '-'], 'upshot: standard input (-) can be uploaded once per run\n'],
      [
        ['--name', 'x.txt', '-', 'a.txt'],
        'upshot: --name names a single upload: give it with one FILE\n',
      ],
      [['--name', 'logs/x.txt', '-'], 'upshot: --name takes a file name, not a path: logs/x.txt\n'],
      [['--name', '  ', '-'], 'upshot: --name needs a value (see --help)\n'],
      [['-', '--name'], 'upshot: --name needs a value (see --help)\n'],
    ];
    for (const [args, message] of cases) {
      const result = await piped(s, 'input', args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(message);
    }
    expect(await uploads(s)).toEqual([]);
  });

  it('reads --password-prompt on the terminal while the data comes through the pipe', async () => {
    const s = await setUp();
    const data = crypto.randomBytes(6000);
    fs.writeFileSync(path.join(s.files, 'input'), data);
    const password = 'p\u00e4ss "word" $(id)';
    const terminal = startInTerminal(
      'sh',
      ['-c', PIPE, 'sh', 'input', s.script, '--password-prompt', '-', '--name', 'secret.bin'],
      { cwd: s.files, env: s.env },
    );
    await terminal.shows('Link password: ');
    terminal.type(`${password}\n`);
    const result = await terminal.done;
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).not.toContain('p\u00e4ss');
    const links = [...new Set(result.stdout.match(new RegExp(`${server.url}/[\\w-]+`, 'g')))];
    expect(links).toHaveLength(1);
    const link = links[0] ?? '';

    expect(await uploadAt(s, link)).toMatchObject({
      originalFilename: 'secret.bin',
      hasPassword: true,
    });
    expect((await fetch(link)).status).toBe(401);
    // The password came from the terminal, so the piped bytes arrive whole.
    expect(await hashDownload(link, { 'x-upshot-password': utf8Header(password) })).toEqual({
      status: 200,
      sha256: sha256(data),
      size: data.length,
    });
    expectNothingKept(s);
  });
});

describe('the bash script, standard input over 100 MiB', () => {
  // Three chunks: two of 50 MiB and a small last one. Written once for both tests.
  const SIZE = MAX_SIMPLE_UPLOAD_BYTES + 4096;
  let big: string;
  let digest: string;
  beforeAll(async () => {
    big = path.join(root, 'big.bin');
    digest = await writeRandomFile(big, SIZE);
  });
  afterAll(() => fs.rmSync(big, { force: true }));

  it('sends it in chunks, keeping nothing for a later run', async () => {
    const s = await setUp();
    const result = await piped(s, big, ['-', '--name', 'big.log']);
    const link = linkOf(result);
    expect(result.stderr).toBe('');
    expect(await hashDownload(link)).toEqual({ status: 200, sha256: digest, size: SIZE });
    const upload = await uploadAt(s, link);
    expect(upload).toMatchObject({ originalFilename: 'big.log', size: SIZE });
    // It went through a chunked session, now completed into this upload.
    expect(await sessionsOf(s)).toEqual([
      { filename: 'big.log', status: 'completed', upload_id: upload.id },
    ]);
    expectNothingKept(s);
  }, 120_000);

  it('drops its session on the server when the upload fails, since no run can resume it', async () => {
    const s = await setUp();
    failPart = 1;
    let result;
    try {
      result = await piped(s, big, ['-']);
    } finally {
      failPart = null;
    }
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^upshot: standard input: .*\(HTTP 500\)$/m);
    expect(await sessionsOf(s)).toEqual([]);
    expect(await uploads(s)).toEqual([]);
    expectNothingKept(s);
  }, 120_000);

  it('drops its session when interrupted (Ctrl-C) mid-upload', async () => {
    const s = await setUp();
    let reached!: () => void;
    const reachedHold = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    holdPart = { index: 1, reached, release: new Promise((resolve) => (release = resolve)) };
    const run = startPiped(s, big, ['-']);
    try {
      await reachedHold;
      expect(await sessionsOf(s)).toMatchObject([{ status: 'open' }]);
      // What Ctrl-C does: SIGINT to the terminal's foreground group (sh, cat, bash, curl).
      killGroup(run.child, 'SIGINT');
    } finally {
      holdPart = null;
      release();
    }
    await run.done;
    expect(await sessionsOf(s)).toEqual([]);
    expect(await uploads(s)).toEqual([]);
    expectNothingKept(s);
  }, 120_000);
});
