/**
 * The bash upload script's link options (--expires, --max-views, --password-prompt), run as a
 * user runs it: downloaded from a listening server, the password typed on a terminal, the
 * links then opened as a visitor opens them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_SIMPLE_UPLOAD_BYTES, type Upload, type UploadResponse } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bashScriptUser,
  commandLineLog,
  hashDownload,
  startInTerminal,
  startLiveServer,
  startProcess,
  tempDir,
  utf8Header,
  writeRandomFile,
  type LiveServer,
  type ScriptUser,
} from '../../../test/live-server.ts';
import type { Storage } from '../../storage/storage.ts';

// The chunk index whose writes fail while it is set (a chunked upload cut short).
let failPart: number | null = null;

let server: LiveServer;
let root: string;
beforeAll(async () => {
  server = await startLiveServer({
    wrapStorage: (storage: Storage): Storage => ({
      ...storage,
      async putPart(multipartId: string, key: string, part, body: Readable) {
        if (part.index === failPart) throw new Error('the disk is gone (test)');
        return storage.putPart(multipartId, key, part, body);
      },
    }),
  });
  root = tempDir('upshot-bash-links-');
});
afterAll(async () => {
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

// Quotes, a backslash, a dollar, spaces and characters beyond ASCII: each would break a
// command line, a curl config line or a JSON string that was not escaped.
const PASSWORD = `pa"ss\\word $(id) 'x' w\u00f6rd \u2713`;

/**
 * Commands the script runs, wrapped to log their arguments before running the real one: the
 * password must never be on a command line, where any local user can read it.
 */
const WATCHED = ['curl', 'sed', 'tr', 'grep', 'head', 'tail', 'cat', 'cut', 'mktemp', 'file'];

async function setUp() {
  const s = await bashScriptUser(server, root, `links ${crypto.randomBytes(3).toString('hex')}`);
  const commandLines = commandLineLog(s.home, WATCHED);
  return { ...s, env: { ...s.env, PATH: commandLines.path }, argvLog: commandLines.log };
}
type Setup = ScriptUser & { argvLog: () => string };

const run = (s: Setup, args: string[]) =>
  startProcess('bash', [s.script, ...args], { cwd: s.files, env: s.env }).done;

/**
 * Runs the script on a terminal, typing `password` at its prompt if it asks for one (`asked`
 * says whether it did).
 */
async function runTyping(s: Setup, args: string[], password: string) {
  const terminal = startInTerminal('bash', [s.script, ...args], { cwd: s.files, env: s.env });
  const asked = terminal.shows('Link password: ').then(
    () => {
      terminal.type(`${password}\n`);
      return true;
    },
    () => false,
  );
  const result = await terminal.done;
  const links = [...new Set(result.stdout.match(new RegExp(`${server.url}/[\\w-]+`, 'g')))];
  return { ...result, links, asked: await asked };
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

function expectExpiry(upload: Upload, fromNowMs: number) {
  expect(upload.expiresAt).not.toBeNull();
  expect(Math.abs(Date.parse(upload.expiresAt ?? '') - (Date.now() + fromNowMs))).toBeLessThan(
    120_000,
  );
}
const DAY = 86_400_000;

/** The link run printed. */
function linkOf(result: { code: number | null; stdout: string; stderr: string }): string {
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

describe('the bash script, simple uploads', () => {
  it('sends --expires and --max-views; the link stops after its views', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'hello a\n');

    const week = linkOf(await run(s, ['--expires', '7d', '--max-views', '3', 'a.txt']));
    const first = await uploadAt(s, week);
    expectExpiry(first, 7 * DAY);
    expect(first).toMatchObject({ maxViews: 3, viewsLeft: 3, hasPassword: false });

    // The =VALUE spelling, an ISO date-time as given, and a single view.
    const at = '2031-01-02T03:04:05Z';
    const once = linkOf(await run(s, [`--expires=${at}`, '--max-views=1', 'a.txt']));
    const second = await uploadAt(s, once);
    expect(Date.parse(second.expiresAt ?? '')).toBe(Date.parse(at));
    expect(second).toMatchObject({ maxViews: 1, viewsLeft: 1 });
    expect(await hashDownload(once)).toMatchObject({ status: 200, size: 8 });
    expect((await fetch(once)).status).toBe(410);
  });

  it('overrides the preferences with "never" and "none", and follows them without options', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'hello a\n');
    const prefs = await fetch(`${server.url}/api/preferences`, {
      method: 'PATCH',
      headers: { 'x-api-token': s.token, 'content-type': 'application/json' },
      body: JSON.stringify({ defaultExpiry: '1d', defaultMaxViews: 5 }),
    });
    expect(prefs.status).toBe(200);

    const plain = await uploadAt(s, linkOf(await run(s, ['a.txt'])));
    expectExpiry(plain, DAY);
    expect(plain.maxViews).toBe(5);

    const open = linkOf(await run(s, ['--expires', 'never', '--max-views', 'none', 'a.txt']));
    expect(await uploadAt(s, open)).toMatchObject({ expiresAt: null, maxViews: null });
  });

  it("prints the server's refusal of a bad value (naming the header), and refuses a view limit that is no number", async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'hello a\n');

    const soon = await run(s, ['--expires', 'soon', 'a.txt']);
    expect(soon.code).toBe(1);
    expect(soon.stdout).toBe('');
    expect(soon.stderr).toMatch(/^upshot: a\.txt: x-upshot-expires: must be .*\(HTTP 400\)$/m);

    const zero = await run(s, ['--max-views', '0', 'a.txt']);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain(
      'upshot: a.txt: x-upshot-max-views: must be at least 1 (HTTP 400)',
    );

    const many = await run(s, ['--max-views', 'many', 'a.txt']);
    expect(many.code).toBe(2);
    expect(many.stderr).toBe('upshot: --max-views takes a whole number or none, not: many\n');
    const missing = await run(s, ['a.txt', '--expires']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('upshot: --expires needs a value (see --help)\n');
    expect(await uploads(s)).toEqual([]);
  });

  it('reads --password-prompt on the terminal without echo, never on a command line', async () => {
    const s = await setUp();
    const digest = await writeRandomFile(path.join(s.files, 'secret.bin'), 20_000);

    const result = await runTyping(
      s,
      ['--password-prompt', '--max-views', '2', 'secret.bin'],
      PASSWORD,
    );
    expect(result.code, result.stdout).toBe(0);
    expect(result.links).toHaveLength(1);
    const link = result.links[0] ?? '';
    // Not echoed, not on any command line the script ran.
    expect(result.stdout).not.toContain('pa"ss');
    expect(s.argvLog()).toContain('curl -K');
    expect(s.argvLog()).not.toContain('pa"ss');
    expect(fs.readdirSync(s.env.TMPDIR)).toEqual([]); // the curl config file is gone

    expect(await uploadAt(s, link)).toMatchObject({ hasPassword: true, maxViews: 2 });
    expect((await fetch(link)).status).toBe(401);
    const wrong = await fetch(link, { headers: { 'x-upshot-password': 'pa"ss' } });
    expect(wrong.status).toBe(401);
    expect(await hashDownload(link, { 'x-upshot-password': utf8Header(PASSWORD) })).toEqual({
      status: 200,
      sha256: digest,
      size: 20_000,
    });
  });

  it('refuses --password-prompt without a terminal, and a password it cannot send', async () => {
    const s = await setUp();
    fs.writeFileSync(path.join(s.files, 'a.txt'), 'hello a\n');
    // startProcess gives the script a session of its own, without a terminal.
    const headless = await run(s, ['--password-prompt', 'a.txt']);
    expect(headless.code).toBe(2);
    expect(headless.stderr).toBe(
      'upshot: --password-prompt needs a terminal to read the password from\n',
    );

    const empty = await runTyping(s, ['--password-prompt', 'a.txt'], '');
    expect(empty.code).toBe(2);
    expect(empty.stdout).toContain('upshot: no password given');
    const spaced = await runTyping(s, ['--password-prompt', 'a.txt'], ' padded ');
    expect(spaced.code).toBe(2);
    expect(spaced.stdout).toContain('upshot: the password must not begin or end with a space');
    expect(await uploads(s)).toEqual([]);
  });
});

describe('the bash script, chunked uploads (over 100 MiB)', () => {
  // Three chunks: two of 50 MiB and a small last one.
  const SIZE = MAX_SIMPLE_UPLOAD_BYTES + 4096;

  /** Runs `script` while the server fails chunk `index`, until the script gives up. */
  async function interrupted<T>(index: number, script: () => Promise<T>): Promise<T> {
    failPart = index;
    try {
      return await script();
    } finally {
      failPart = null;
    }
  }
  /** The state file of the one interrupted upload, and the session id it holds. */
  function savedState(s: Setup) {
    const dir = path.join(s.env.XDG_STATE_HOME, 'upshot');
    const names = fs.readdirSync(dir);
    expect(names).toHaveLength(1);
    const file = path.join(dir, names[0] ?? '');
    const text = fs.readFileSync(file, 'utf8');
    return { file, text, uploadId: /^upload_id=(.+)$/m.exec(text)?.[1] ?? '' };
  }
  const sessionStatus = async (s: Setup, uploadId: string) =>
    (
      await fetch(`${server.url}/api/chunked-upload/${uploadId}`, {
        headers: { 'x-api-token': s.token },
      })
    ).status;

  it('gives a resumed upload the expiry, view limit and password it started with, not asking again', async () => {
    const s = await setUp();
    const digest = await writeRandomFile(path.join(s.files, 'big.bin'), SIZE);
    const args = ['--expires', '7d', '--max-views', '2', '--password-prompt', 'big.bin'];

    // The first run stores chunk 0, then the server fails chunk 1 until the script gives up.
    const first = await interrupted(1, () => runTyping(s, args, PASSWORD));
    expect(first.code, first.stdout).toBe(1);
    expect(first.asked).toBe(true);
    expect(first.links).toEqual([]);

    // The session keeps the password typed first, so a second one (ignored) is not asked for.
    const second = await runTyping(s, args, 'typed in vain');
    expect(second.code, second.stdout).toBe(0);
    expect(second.asked, second.stdout).toBe(false);
    expect(second.stdout).toContain('Resuming upload: 1 of 3 chunks already on the server');
    expect(second.stdout).toContain(
      'upshot: big.bin: the link password typed when this upload started applies; not asking again',
    );
    expect(second.links).toHaveLength(1);
    const link = second.links[0] ?? '';
    expect(s.argvLog()).toContain('--data-binary @');
    expect(s.argvLog()).not.toContain('pa"ss');

    const upload = await uploadAt(s, link);
    expectExpiry(upload, 7 * DAY);
    expect(upload).toMatchObject({ maxViews: 2, viewsLeft: 2, hasPassword: true, size: SIZE });
    expect((await fetch(link)).status).toBe(401);
    expect(await hashDownload(link, { 'x-upshot-password': utf8Header(PASSWORD) })).toEqual({
      status: 200,
      sha256: digest,
      size: SIZE,
    });
  }, 120_000);

  it('asks for the password when the interrupted session is gone, and gives the new upload that one', async () => {
    const s = await setUp();
    const digest = await writeRandomFile(path.join(s.files, 'big.bin'), SIZE);
    const args = ['--password-prompt', 'big.bin'];

    const first = await interrupted(0, () => runTyping(s, args, PASSWORD));
    expect(first.code, first.stdout).toBe(1);
    const { uploadId } = savedState(s);
    const abort = await fetch(`${server.url}/api/chunked-upload/${uploadId}`, {
      method: 'DELETE',
      headers: { 'x-api-token': s.token },
    });
    expect(abort.status).toBeLessThan(300);

    // It asks only once it knows the upload starts over.
    const second = await runTyping(s, args, 'the second password');
    expect(second.code, second.stdout).toBe(0);
    expect(second.asked).toBe(true);
    const gone = second.stdout.indexOf('upshot: big.bin: the earlier upload session is gone');
    expect(gone, second.stdout).toBeGreaterThanOrEqual(0);
    expect(second.stdout.indexOf('Link password: ')).toBeGreaterThan(gone);
    expect(second.stdout).not.toContain('not asking again');
    expect(second.links).toHaveLength(1);
    const link = second.links[0] ?? '';
    expect(await uploadAt(s, link)).toMatchObject({ hasPassword: true, size: SIZE });
    expect(await hashDownload(link, { 'x-upshot-password': 'the second password' })).toEqual({
      status: 200,
      sha256: digest,
      size: SIZE,
    });
  }, 120_000);

  it('takes a state file from before the link options (no link line) as one without them', async () => {
    const s = await setUp();
    const digest = await writeRandomFile(path.join(s.files, 'big.bin'), SIZE);
    // The previous version of the script wrote the key and the session id, nothing more.
    const asPreviousVersion = () => {
      const state = savedState(s);
      expect(state.text).toMatch(/^link=public= expires= max-views= password=0$/m);
      fs.writeFileSync(state.file, state.text.replace(/^link=.*\n/m, ''));
      expect(fs.readFileSync(state.file, 'utf8')).toMatch(/^key=.*\nupload_id=.*\n$/);
      return state.uploadId;
    };

    // Run again without options, it resumes.
    expect((await interrupted(1, () => run(s, ['big.bin']))).code).toBe(1);
    asPreviousVersion();
    const second = await run(s, ['big.bin']);
    const link = linkOf(second);
    expect(second.stderr).toContain('upshot: Resuming upload: 1 of 3 chunks already on the server');
    expect(second.stderr).not.toContain('starting over');
    expect(await hashDownload(link)).toEqual({ status: 200, sha256: digest, size: SIZE });

    // Run again with link options, it starts over with them.
    expect((await interrupted(0, () => run(s, ['big.bin']))).code).toBe(1);
    const earlier = asPreviousVersion();
    const third = await run(s, ['--max-views', '1', 'big.bin']);
    const limited = linkOf(third);
    expect(third.stderr).toContain(
      "upshot: big.bin: the link options differ from the interrupted upload's; starting over",
    );
    expect(await sessionStatus(s, earlier)).toBe(404);
    expect(await uploadAt(s, limited)).toMatchObject({ maxViews: 1, size: SIZE });
  }, 180_000);

  it('starts over, dropping the interrupted session, when the options differ from its own', async () => {
    const s = await setUp();
    await writeRandomFile(path.join(s.files, 'big.bin'), SIZE);

    const first = await interrupted(0, () => run(s, ['--private', 'big.bin']));
    expect(first.code).toBe(1);
    const { text: stateText, uploadId: earlier } = savedState(s);
    expect(stateText).toContain('link=public=false ');

    const second = await run(s, ['--public', '--max-views', '1', 'big.bin']);
    const link = linkOf(second);
    expect(second.stderr).toContain(
      "upshot: big.bin: the link options differ from the interrupted upload's; starting over",
    );
    expect(second.stderr).not.toContain('Resuming');
    expect(await sessionStatus(s, earlier)).toBe(404);
    expect(await uploadAt(s, link)).toMatchObject({ isPublic: true, maxViews: 1, size: SIZE });
  }, 120_000);
});

describe('a deletion link, from a script', () => {
  it('deletes its upload with curl -X POST "$deletionUrl", as the README says', async () => {
    const s = await setUp();
    const form = new FormData();
    form.append('file', new Blob(['soon gone\n']), 'gone.txt');
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { 'x-api-token': s.token },
      body: form,
    });
    const { url, deletionUrl } = (await res.json()) as UploadResponse;
    expect(res.status).toBe(201);
    const curl = startProcess(
      'sh',
      ['-c', 'curl -sS -o /dev/null -w "%{http_code}" -X POST "$1"', 'sh', deletionUrl],
      {
        cwd: s.files,
        env: s.env,
      },
    );
    const result = await curl.done;
    expect(result.stdout, result.stderr).toBe('200');
    expect((await fetch(url)).status).toBe(404);
  });
});
