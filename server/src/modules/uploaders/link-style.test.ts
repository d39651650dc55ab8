/**
 * The desktop uploaders hand out the link the user's Link style (linkStyle) names when they are
 * downloaded: the ShareX config's URL, and the link the scripts print (the bash script run for
 * real against a listening server; the PowerShell script read, as it cannot run here). A later
 * change of the preference changes only what is downloaded after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LinkStyle, UploadResponse } from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTokenUser,
  downloadScript,
  startLiveServer,
  startProcess,
  tempDir,
  type LiveServer,
  type ScriptKind,
} from '../../../test/live-server.ts';

let server: LiveServer;
let root: string;
beforeAll(async () => {
  server = await startLiveServer();
  root = tempDir('upshot-link-style-');
});
afterAll(async () => {
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

type Account = Awaited<ReturnType<typeof createTokenUser>>;

function api(account: Account, method: string, route: string, body?: unknown) {
  return fetch(`${server.url}${route}`, {
    method,
    headers: {
      ...account.auth,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A user whose Link style is `style`. */
async function userWith(style: LinkStyle): Promise<Account> {
  const account = await createTokenUser(server.ctx);
  if (style !== 'raw') {
    const res = await api(account, 'PATCH', '/api/preferences', { linkStyle: style });
    expect(res.status).toBe(200);
  }
  return account;
}

const script = (account: Account, kind: ScriptKind) =>
  downloadScript(server, account.user.id, account.token, kind).then(({ text }) => text);

async function sharexConfig(account: Account, userId = account.user.id) {
  const res = await api(account, 'GET', `/api/users/${userId}/sharex-config`);
  expect(res.status).toBe(200);
  return (await res.json()) as { URL: string; RequestURL: string; Headers: Record<string, string> };
}

/** Resolves ShareX's `{json:name}` against an answer's top level. */
const resolve = (template: string, answer: Record<string, unknown>) =>
  template.replace(/^\{json:(\w+)\}$/, (_, name: string) => String(answer[name]));

/** What a signed-out browser gets at a link. */
async function visit(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('the ShareX config', () => {
  it("hands out the file or its preview page, as the user's Link style was when downloaded", async () => {
    const raw = await userWith('raw');
    expect((await sharexConfig(raw)).URL).toBe('{json:url}');

    const preview = await userWith('preview');
    const config = await sharexConfig(preview);
    expect(config.URL).toBe('{json:previewUrl}');
    // Uploading as ShareX does, the link it puts in its history is the page, which opens.
    const form = new FormData();
    form.append('file', new Blob(['shared words']), 'notes.txt');
    const res = await fetch(config.RequestURL, {
      method: 'POST',
      headers: config.Headers,
      body: form,
    });
    const answer = (await res.json()) as UploadResponse;
    expect(res.status).toBe(201);
    const link = resolve(config.URL, answer);
    expect(link).toBe(`${server.url}/v/${answer.upload.shortCode}`);
    const page = await visit(link);
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('shared words');

    // Changed back, only a config downloaded afterwards follows.
    await api(preview, 'PATCH', '/api/preferences', { linkStyle: 'raw' });
    expect((await sharexConfig(preview)).URL).toBe('{json:url}');
  });

  it("follows the owner's Link style when an administrator downloads it", async () => {
    const owner = await userWith('preview');
    const admin = await createTokenUser(server.ctx, { role: 'admin' });
    expect((await sharexConfig(admin)).URL).toBe('{json:url}');
    expect((await sharexConfig(admin, owner.user.id)).URL).toBe('{json:previewUrl}');
  });
});

/** A user's bash script, saved in a home of its own to run from. */
async function bashScript(account: Account) {
  const home = fs.mkdtempSync(path.join(root, 'home-'));
  for (const d of ['state', 'tmp', 'files']) fs.mkdirSync(path.join(home, d));
  const file = path.join(home, 'upshot.sh');
  fs.writeFileSync(file, await script(account, 'bash-script'), { mode: 0o755 });
  const files = path.join(home, 'files');
  fs.writeFileSync(path.join(files, 'notes.txt'), 'printed words\n');
  const env = {
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    TMPDIR: path.join(home, 'tmp'),
  };
  return (...args: string[]) => startProcess('bash', [file, ...args], { cwd: files, env }).done;
}

/** The one link a run printed, and the upload it is a link of. */
async function printed(account: Account, stdout: string) {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const link = lines[0]!;
  const list = await api(account, 'GET', '/api/uploads');
  const { uploads } = (await list.json()) as { uploads: UploadResponse['upload'][] };
  const upload = uploads.find((u) => u.url === link || u.previewUrl === link);
  expect(upload, link).toBeDefined();
  return { link, upload: upload! };
}

describe('the bash script', () => {
  it('prints the preview page for a user whose Link style was preview; --link file the file', async () => {
    const account = await userWith('preview');
    const run = await bashScript(account);
    const first = await run('notes.txt');
    expect(first.code, first.stderr).toBe(0);
    const { link, upload } = await printed(account, first.stdout);
    expect(link).toBe(upload.previewUrl);
    expect(link).toBe(`${server.url}/v/${upload.shortCode}`);
    const page = await visit(link);
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('printed words');

    for (const args of [['--link', 'file'], ['--link=file']]) {
      const run2 = await run(...args, 'notes.txt');
      expect(run2.code, run2.stderr).toBe(0);
      const again = await printed(account, run2.stdout);
      expect(again.link).toBe(again.upload.url);
      expect((await visit(again.link)).body).toBe('printed words\n');
    }
  });

  it('prints the file for a user whose Link style was raw; --link preview the page', async () => {
    const account = await userWith('raw');
    const run = await bashScript(account);
    const plain = await run('notes.txt');
    expect(plain.code, plain.stderr).toBe(0);
    const first = await printed(account, plain.stdout);
    expect(first.link).toBe(first.upload.url);

    const chosen = await run('--link', 'preview', 'notes.txt');
    expect(chosen.code, chosen.stderr).toBe(0);
    const second = await printed(account, chosen.stdout);
    expect(second.link).toBe(`${server.url}/v/${second.upload.shortCode}`);
    expect(second.upload.id).not.toBe(first.upload.id);
  });

  it('refuses a --link it does not know, before uploading anything, and says so in --help', async () => {
    const account = await userWith('preview');
    const run = await bashScript(account);
    for (const args of [['--link', 'raw'], ['--link', 'Preview'], ['--link']]) {
      const refused = await run(...args, 'notes.txt');
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/--link (takes file or preview|needs a value)/);
    }
    const list = await api(account, 'GET', '/api/uploads');
    expect(((await list.json()) as { total: number }).total).toBe(0);
    const help = await run('--help');
    expect(help.stdout).toContain('--link STYLE');
    expect(help.stdout).toContain('without it: preview, your Link style');
    // A chunked upload's answer is read the same way as a simple one's.
    const text = await script(account, 'bash-script');
    expect(text).toContain("default_link='preview'");
    expect(text.split('link=$(json_string "$link_key" "$body")')).toHaveLength(3);
  });
});

describe('the PowerShell script (its text: PowerShell cannot run here)', () => {
  it('prints the link of the Link style it was downloaded with, unless -Link says', async () => {
    const raw = (await script(await userWith('raw'), 'powershell-script')).replace(/^\ufeff/, '');
    const preview = await script(await userWith('preview'), 'powershell-script');
    expect(raw).toMatch(/^\$DefaultLink = 'file'\r?$/m);
    expect(preview).toMatch(/^\$DefaultLink = 'preview'\r?$/m);
    expect(raw).toMatch(/^ {4}\[string\]\$Link,\r?$/m);
    // -Link, in any case, wins over the default; anything but file or preview stops the run.
    expect(raw).toContain(
      'if ($PSBoundParameters.ContainsKey(\'Link\')) { $LinkStyle = "$Link".ToLowerInvariant() }',
    );
    expect(raw).toMatch(
      /if \(\$LinkStyle -cne 'file' -and \$LinkStyle -cne 'preview'\) \{\s+Write-UpshotError "-Link takes file or preview, not: \$LinkStyle"\s+exit 2/,
    );
    // Both ways an upload ends read the link of that style from the answer.
    expect(raw).toMatch(
      /function Get-UploadLink\(\$Json\) \{\s+if \(\$LinkStyle -ceq 'preview'\) \{ return \[string\]\$Json\.previewUrl \}\s+return \[string\]\$Json\.url\s+\}/,
    );
    expect(raw.split('return Get-UploadLink $result.Json')).toHaveLength(3);
    expect(raw).toContain('  -Link STYLE       print the link to the file itself (file)');
  });
});
