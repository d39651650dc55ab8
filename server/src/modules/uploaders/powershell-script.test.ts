/**
 * The PowerShell upload script. PowerShell cannot run on this machine, so this is a protocol
 * check, not a PowerShell run: it reads from the downloaded .ps1 the requests it would make
 * (paths, fields and their order, the size threshold, the answers it reads), then makes exactly
 * those requests against a listening server, shaped as .NET's HttpClient shapes them, and
 * checks the result byte for byte.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  CHUNK_SIZE,
  MAX_SIMPLE_UPLOAD_BYTES,
  type ChunkInitResponse,
  type ChunkStatusResponse,
  type UploadResponse,
} from '@upshot/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openChunk, partRows, waitForWriting } from '../../../test/chunked-uploads.ts';
import {
  createTokenUser,
  downloadScript,
  hashDownload,
  sha256,
  startLiveServer,
  tempDir,
  utf8Header,
  writeRandomFile,
  type LiveServer,
} from '../../../test/live-server.ts';

let server: LiveServer;
let root: string;
beforeAll(async () => {
  server = await startLiveServer();
  root = tempDir('upshot-ps-');
});
afterAll(async () => {
  await server?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

// A username that needs PowerShell's quoting, and would run code if it were not quoted.
const USERNAME = "o'brien $(Remove-Item x) `x";
// A link password with quotes, a backslash, a dollar and characters beyond ASCII.
const PASSWORD = `pa"ss\\word $(x) 'y' w\u00f6rd \u2713`;
const DAY = 86_400_000;
const expiresIn = (upload: { expiresAt: string | null }) =>
  Date.parse(upload.expiresAt ?? '') - Date.now();

async function setUp() {
  const account = await createTokenUser(server.ctx, {
    username: `${USERNAME} ${crypto.randomBytes(3).toString('hex')}`,
  });
  const { text, headers } = await downloadScript(
    server,
    account.user.id,
    account.token,
    'powershell-script',
  );
  return { ...account, raw: text, script: text.replace(/^\ufeff/, ''), headers };
}

/** The text of `function Name ... }` (functions close with a brace in the first column). */
function fn(script: string, name: string): string {
  const match = new RegExp(`^function ${name}\\b[\\s\\S]*?^\\}`, 'm').exec(script);
  if (!match) throw new Error(`the script has no function ${name}`);
  return match[0];
}
/** A `$Name = '...'` assignment's value, PowerShell's '' read back as '. */
function assigned(script: string, name: string): string {
  const match = new RegExp(`^\\$${name} = '((?:[^']|'')*)'\\r?$`, 'm').exec(script);
  if (!match?.[1]) throw new Error(`the script assigns no $${name}`);
  return match[1].replace(/''/g, "'");
}
/** Every `Invoke-Upshot 'METHOD' 'path'` (or "path") in a piece of the script. */
function requests(piece: string): string[] {
  return [...piece.matchAll(/Invoke-Upshot '([A-Z]+)' (['"])([^'"]+)\2/g)].map(
    (m) => `${m[1]} ${m[3]}`,
  );
}
/** The multipart parts a piece adds to `$form`, in order. */
function formFields(piece: string): string[] {
  return [
    ...piece.matchAll(
      /\$form\.Add\(\[System\.Net\.Http\.StringContent\]::new\([^\n]*\), '(\w+)'\)|Add-FilePart \$form \$\w+ '(\w+)'/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? '');
}
/** The keys of the first `@{ ... }` / `[ordered]@{ ... }` in a piece. */
function hashKeys(piece: string): string[] {
  const body = /@\{([\s\S]*?)\}/.exec(piece)?.[1] ?? '';
  return [...body.matchAll(/(?:^|[\s;{])(\w+) = /g)].map((m) => m[1] ?? '');
}

/**
 * A multipart body as .NET's MultipartFormDataContent writes it: a quoted GUID boundary, string
 * parts with their text/plain type and an unquoted name, file parts as Add-FilePart sets them.
 */
function dotnetForm(
  parts: Array<{ name: string; value: string } | { name: string; filename: string; data: Buffer }>,
  asciiPattern: RegExp,
) {
  const boundary = crypto.randomUUID();
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      pieces.push(
        Buffer.from(
          `Content-Type: text/plain; charset=utf-8\r\nContent-Disposition: form-data; name=${part.name}\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      const ascii = part.filename.replace(asciiPattern, '_');
      const star =
        ascii === part.filename
          ? ''
          : `; filename*=utf-8''${encodeURIComponent(part.filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
      pieces.push(
        Buffer.from(
          `Content-Disposition: form-data; name=${part.name}; filename="${ascii}"${star}\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(pieces),
    type: `multipart/form-data; boundary="${boundary}"`,
  };
}

/** The pattern Add-FilePart turns a name into ASCII with (read from the script). */
function asciiPatternOf(script: string): RegExp {
  const addFilePart = fn(script, 'Add-FilePart');
  // The header dotnetForm writes: name as a token, the ASCII name quoted, then filename*.
  expect(addFilePart).toContain('$disposition.Name = $Field');
  expect(addFilePart).toContain(`$disposition.FileName = '"' + $ascii + '"'`);
  expect(addFilePart).toContain(
    'if ($ascii -cne $FileName) { $disposition.FileNameStar = $FileName }',
  );
  const match = /\$FileName -replace '([^']+)', '_'/.exec(addFilePart);
  if (!match?.[1]) throw new Error('Add-FilePart does not make an ASCII name');
  return new RegExp(match[1], 'g');
}

describe('the PowerShell upload script (protocol check)', () => {
  it('carries the URL, token and username, quoted for PowerShell, and sends the token header', async () => {
    const s = await setUp();
    expect(s.raw.startsWith('\ufeff')).toBe(true); // Windows PowerShell 5.1 reads it as UTF-8
    expect(s.script).not.toMatch(/__UPSHOT_[A-Z]+__/);
    expect(assigned(s.script, 'DefaultUrl')).toBe(server.url);
    expect(assigned(s.script, 'DefaultToken')).toBe(s.token);
    expect(assigned(s.script, 'UserName')).toBe(s.user.username);
    expect(s.script).toContain(`$UserName = '${s.user.username.replace(/'/g, "''")}'`);
    // Every request carries the token in X-API-Token; the environment may override both.
    expect(s.script).toContain("TryAddWithoutValidation('X-API-Token', $Token)");
    expect(s.script).toMatch(/if \(\$env:UPSHOT_URL\) \{ \$BaseUrl = \$env:UPSHOT_URL \}/);
    expect(s.script).toMatch(/if \(\$env:UPSHOT_TOKEN\) \{ \$Token = \$env:UPSHOT_TOKEN \}/);
    expect(s.script).toMatch(/\[switch\]\$Private,/);
    expect(s.script).toMatch(/\[switch\]\$Public,/);
    expect(s.script).toMatch(/\[string\]\$Expires,/);
    expect(s.script).toMatch(/\[string\]\$MaxViews,/);
    expect(s.script).toMatch(/\[switch\]\$PasswordPrompt,/);
    const usage = fn(s.script, 'Show-Usage');
    for (const option of [
      '-Private',
      '-Public',
      '-Expires WHEN',
      '-MaxViews N',
      '-PasswordPrompt',
    ]) {
      expect(usage).toContain(option);
    }
    // The template is ASCII, so no code page can change it.
    const template = fs.readFileSync(new URL('./templates/upshot.ps1', import.meta.url));
    expect(template.every((b) => b < 0x80)).toBe(true);
  });

  it('sends a file up to 100 MiB as `file` to /api/upload, fields first, and reads url', async () => {
    const s = await setUp();
    // The threshold, and the choice it makes.
    expect(Number(/^\$SimpleLimit = (\d+)\r?$/m.exec(s.script)?.[1])).toBe(MAX_SIMPLE_UPLOAD_BYTES);
    expect(s.script).toMatch(
      /if \(\$file\.Length -le \$SimpleLimit\) \{\s+\$uploaded = Send-Simple \$file\s+\} else \{\s+\$uploaded = Send-Chunked \$file/,
    );
    const simple = fn(s.script, 'Send-Simple');
    expect(requests(simple)).toEqual(['POST /api/upload']);
    const fields = formFields(simple);
    expect(fields).toEqual(['isPublic', 'expires', 'maxViews', 'password', 'file']);
    const [privacyField = '', , , , fileField = ''] = fields;
    // The answer's url or previewUrl, as -Link says (link-style.test.ts).
    expect(simple).toContain('return Get-UploadLink $result.Json');
    expect(fn(s.script, 'Write-Failure')).toContain('$Result.Json.message');

    // Those steps, with -Private and a name that is not ASCII.
    const name = 'résumé "final" 日本.txt';
    const data = crypto.randomBytes(200_000);
    const form = dotnetForm(
      [
        { name: privacyField, value: 'false' },
        { name: fileField, filename: name, data },
      ],
      asciiPatternOf(s.script),
    );
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { 'x-api-token': s.token, 'content-type': form.type },
      body: form.body,
    });
    const answer = (await res.json()) as UploadResponse;
    expect(res.status, JSON.stringify(answer)).toBe(201);
    expect(answer.message).toEqual(expect.any(String));
    expect(answer.upload).toMatchObject({ originalFilename: name, isPublic: false });
    expect(await hashDownload(answer.url, { 'x-api-token': s.token })).toEqual({
      status: 200,
      sha256: sha256(data),
      size: data.length,
    });
    expect((await fetch(answer.url)).status).toBe(404);
  });

  it('sends -Expires, -MaxViews and the -PasswordPrompt password as fields before the file', async () => {
    const s = await setUp();
    // The password is read once without echo into memory; it goes in a body, never a header
    // (.NET does not send a header's characters beyond ASCII the same on 5.1 and 7).
    expect(s.script).toContain("Read-Host -Prompt 'Link password' -AsSecureString");
    expect(s.script).toContain("[System.Net.NetworkCredential]::new('', $secure).Password");
    expect(s.script).not.toMatch(/X-Upshot-/i);
    // -MaxViews is checked by the script (the chunked upload sends it as a JSON number).
    expect(s.script).toContain("$MaxViews -match '^[0-9]{1,9}$'");
    const simple = fn(s.script, 'Send-Simple');
    for (const [variable, field] of [
      ['$LinkExpires', 'expires'],
      ['$LinkMaxViews', 'maxViews'],
      ['$LinkPassword', 'password'],
    ]) {
      expect(simple).toContain(
        `if ($null -ne ${variable}) { $form.Add([System.Net.Http.StringContent]::new(${variable}), '${field}') }`,
      );
    }
    const asciiPattern = asciiPatternOf(s.script);
    const send = async (fields: Array<{ name: string; value: string }>, data: Buffer) => {
      const form = dotnetForm(
        [...fields, { name: 'file', filename: 'link.bin', data }],
        asciiPattern,
      );
      const res = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { 'x-api-token': s.token, 'content-type': form.type },
        body: form.body,
      });
      return { status: res.status, answer: (await res.json()) as UploadResponse };
    };

    // -Expires 7d -MaxViews 2 -PasswordPrompt
    const data = crypto.randomBytes(50_000);
    const locked = await send(
      [
        { name: 'expires', value: '7d' },
        { name: 'maxViews', value: '2' },
        { name: 'password', value: PASSWORD },
      ],
      data,
    );
    expect(locked.status, JSON.stringify(locked.answer)).toBe(201);
    expect(locked.answer.upload).toMatchObject({ maxViews: 2, viewsLeft: 2, hasPassword: true });
    expect(Math.abs(expiresIn(locked.answer.upload) - 7 * DAY)).toBeLessThan(120_000);
    expect(JSON.stringify(locked.answer)).not.toContain('w\u00f6rd');
    expect((await fetch(locked.answer.url)).status).toBe(401);
    expect(
      await hashDownload(locked.answer.url, { 'x-upshot-password': utf8Header(PASSWORD) }),
    ).toEqual({ status: 200, sha256: sha256(data), size: data.length });

    // -Expires never -MaxViews none
    const open = await send(
      [
        { name: 'expires', value: 'never' },
        { name: 'maxViews', value: 'none' },
      ],
      data,
    );
    expect(open.status, JSON.stringify(open.answer)).toBe(201);
    expect(open.answer.upload).toMatchObject({
      expiresAt: null,
      maxViews: null,
      hasPassword: false,
    });

    // A value the server refuses: Write-Failure prints its message, which names the field.
    const bad = await send([{ name: 'expires', value: 'soon' }], data);
    expect(bad.status).toBe(400);
    expect((bad.answer as unknown as { message: string }).message).toMatch(/expires/);
  });

  it('asks for the -PasswordPrompt password only for a new upload; an old state file has no link options', async () => {
    const s = await setUp();
    // The one prompt, in Read-LinkPassword, which what starts an upload calls before its request.
    expect(s.script.split('Read-Host -Prompt').length).toBe(2);
    const ask = fn(s.script, 'Read-LinkPassword');
    expect(ask).toContain("Read-Host -Prompt 'Link password' -AsSecureString");
    expect(ask).toContain(
      'if (-not $PasswordPrompt -or $null -ne $script:LinkPassword) { return $true }',
    );
    for (const name of ['Send-Simple', 'Start-ChunkedUpload']) {
      const body = fn(s.script, name);
      const at = body.indexOf('if (-not (Read-LinkPassword)) { return $null }');
      expect(at, name).toBeGreaterThan(0);
      expect(at, name).toBeLessThan(body.indexOf('Invoke-Upshot'));
    }
    // A password it cannot send stops the run (exit 2), after the links already made.
    expect(s.script).toContain('if ($script:PasswordRefused) { exit 2 }');
    // A resumed session keeps the password typed when it started: it is not asked for again.
    const chunked = fn(s.script, 'Send-Chunked');
    expect(chunked).not.toContain('Read-LinkPassword');
    expect(chunked).toMatch(
      /'Resuming upload: [^\n]*\n\s+if \(\$PasswordPrompt\) \{\s+Write-UpshotNote "\$\{name\}: the link password typed when this upload started applies; not asking again"/,
    );

    // The state says whether there is a password before any is typed.
    const options =
      /^\$LinkOptions = '([^']+)' -f \$IsPublic, \$LinkExpires, \$LinkMaxViews, \$PasswordPrompt\.IsPresent\r?$/m.exec(
        s.script,
      );
    if (!options?.[1]) throw new Error('the script sets no $LinkOptions');
    // A state file from before the link options (key and uploadId only) counts as one saved by
    // a run without any: the options' format as -f fills it then ($null is '', False the switch).
    for (const variable of ['IsPublic', 'LinkExpires', 'LinkMaxViews']) {
      expect(s.script).toMatch(new RegExp(`^\\$${variable} = \\$null\\r?$`, 'm'));
    }
    const none = options[1].replace(/\{[012]\}/g, '').replace('{3}', 'False');
    expect(none).toBe('public= expires= max-views= password=False');
    expect(assigned(s.script, 'NoLinkOptions')).toBe(none);
    const read = fn(s.script, 'Read-State');
    expect(read).toMatch(
      /\$link = \[string\]\$state\.link\s+if \(-not \$link\) \{ \$link = \$NoLinkOptions \}/,
    );
    expect(read).toContain('return @{ UploadId = [string]$state.uploadId; Link = $link }');
  });

  it('sends a larger file in the chunks the server asks for, resuming after an interruption', async () => {
    const s = await setUp();
    const auth = { 'x-api-token': s.token };

    // What the script sends, read from it.
    const start = fn(s.script, 'Start-ChunkedUpload');
    expect(requests(start)).toEqual(['POST /api/chunked-upload/init']);
    expect(hashKeys(start)).toEqual(['filename', 'mimeType', 'totalSize', 'totalChunks']);
    expect(start).toContain('$payload.isPublic = [bool]$IsPublic');
    expect(start).toContain('if ($null -ne $LinkExpires) { $payload.expires = $LinkExpires }');
    expect(start).toContain('$payload.maxViews = [int]$LinkMaxViews');
    expect(start).toMatch(/if \(\$LinkMaxViews -eq 'none'\) \{\s+\$payload\.maxViews = \$null/);
    expect(start).toContain('if ($null -ne $LinkPassword) { $payload.password = $LinkPassword }');
    expect(start).toContain('$result.Json.chunkSize'); // the server's chunk size, not its own
    expect(start).toContain('$result.Json.uploadId');
    const chunked = fn(s.script, 'Send-Chunked');
    expect(requests(chunked)).toEqual([
      'DELETE /api/chunked-upload/$($state.UploadId)',
      'GET /api/chunked-upload/$saved',
    ]);
    // A session resumes only with the link options it was started with; else it is dropped.
    expect(fn(s.script, 'Save-State')).toContain('link = $LinkOptions');
    expect(chunked).toContain('if ($state -and $state.Link -cne $LinkOptions) {');
    expect(chunked).toContain('$result.Json.receivedChunks');
    expect(chunked).toContain("'Resuming upload: {0} of {1} chunks already on the server'");
    expect(chunked).toMatch(/if \(\$session\.Received -contains \$i\) \{ continue \}/);
    const send = fn(s.script, 'Send-Chunk');
    expect(requests(send)).toEqual(['POST /api/chunked-upload/chunk']);
    const [idField = '', indexField = '', chunkField = '', ...more] = formFields(send);
    expect([idField, indexField, chunkField, ...more]).toEqual(['uploadId', 'chunkIndex', 'chunk']);
    expect(send).toContain('if ($result.Status -eq 204)');
    const complete = fn(s.script, 'Complete-Upload');
    expect(requests(complete)).toEqual(['POST /api/chunked-upload/complete']);
    expect(complete).toContain('New-JsonContent @{ uploadId = $UploadId }');
    expect(complete).toContain('$result.Status -eq 201 -or $result.Status -eq 200');
    expect(complete).toContain('return Get-UploadLink $result.Json');
    const asciiPattern = asciiPatternOf(s.script);

    // Those steps against the server, for a file just over the threshold.
    const file = path.join(root, 'video.mp4');
    const size = MAX_SIMPLE_UPLOAD_BYTES + 12_345;
    const digest = await writeRandomFile(file, size);
    const post = (route: string, body: unknown) =>
      fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(body),
      });
    const totalChunks = Math.ceil(size / CHUNK_SIZE);
    const base = { filename: 'video.mp4', mimeType: '', totalSize: size, totalChunks };
    // -Expires never -MaxViews none: a string, and a null.
    const open = await post('/api/chunked-upload/init', {
      ...base,
      expires: 'never',
      maxViews: null,
    });
    expect(open.status, await open.clone().text()).toBe(201);
    const openId = ((await open.json()) as ChunkInitResponse).uploadId;
    const abort = await fetch(`${server.url}/api/chunked-upload/${openId}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(abort.status).toBeLessThan(300);
    // -Expires 7d -MaxViews 2 -PasswordPrompt, as ConvertTo-Json writes them.
    const init = await post('/api/chunked-upload/init', {
      ...base,
      expires: '7d',
      maxViews: 2,
      password: PASSWORD,
    });
    const session = (await init.json()) as ChunkInitResponse;
    expect(init.status, JSON.stringify(session)).toBe(201);
    expect(session.chunkSize).toBe(CHUNK_SIZE);
    expect(Math.ceil(size / session.chunkSize)).toBe(3);
    const uploadId: string = session.uploadId;

    // Read-Chunk: one buffer of the server's chunk size, filled from the file at each offset.
    const buffer = Buffer.alloc(session.chunkSize);
    const handle = await fs.promises.open(file, 'r');
    const readChunk = async (i: number) => {
      const count = Math.min(session.chunkSize, size - i * session.chunkSize);
      const { bytesRead } = await handle.read(buffer, 0, count, i * session.chunkSize);
      expect(bytesRead).toBe(count);
      return buffer.subarray(0, count);
    };
    const sendChunk = async (i: number) => {
      const form = dotnetForm(
        [
          { name: idField, value: uploadId },
          { name: indexField, value: String(i) },
          { name: chunkField, filename: 'blob', data: await readChunk(i) },
        ],
        asciiPattern,
      );
      const res = await fetch(`${server.url}/api/chunked-upload/chunk`, {
        method: 'POST',
        headers: { ...auth, 'content-type': form.type },
        body: form.body,
      });
      expect(res.status, await res.text()).toBe(204);
    };
    const received = async () => {
      const res = await fetch(`${server.url}/api/chunked-upload/${uploadId}`, { headers: auth });
      expect(res.status).toBe(200);
      const status = (await res.json()) as ChunkStatusResponse;
      expect(status).toMatchObject({ totalSize: size, totalChunks: 3, chunkSize: CHUNK_SIZE });
      return status.receivedChunks;
    };

    try {
      await sendChunk(0);
      // Chunk 1 is cut off halfway (the script killed, the network gone).
      const cut = openChunk(server.url, auth, uploadId, 1, Buffer.from(await readChunk(1)));
      await cut.send(CHUNK_SIZE / 2);
      await waitForWriting(server.ctx, uploadId, 1);
      cut.destroy();
      await vi.waitFor(
        async () =>
          expect((await partRows(server.ctx, uploadId)).map((p) => p.chunk_index)).toEqual([0]),
        { timeout: 30_000, interval: 50 },
      );

      // The script run again: it asks which chunks the server has and sends the others.
      const have = await received();
      expect(have).toEqual([0]);
      for (let i = 0; i < 3; i++) if (!have.includes(i)) await sendChunk(i);
      expect(await received()).toEqual([0, 1, 2]);
    } finally {
      await handle.close();
    }

    const done = await post('/api/chunked-upload/complete', { uploadId });
    const answer = (await done.json()) as UploadResponse;
    expect(done.status, JSON.stringify(answer)).toBe(201);
    expect(answer.message).toEqual(expect.any(String));
    expect(answer.upload).toMatchObject({
      originalFilename: 'video.mp4',
      size,
      maxViews: 2,
      hasPassword: true,
    });
    expect(Math.abs(expiresIn(answer.upload) - 7 * DAY)).toBeLessThan(120_000);
    expect((await fetch(answer.url)).status).toBe(401);
    expect(await hashDownload(answer.url, { 'x-upshot-password': utf8Header(PASSWORD) })).toEqual({
      status: 200,
      sha256: digest,
      size,
    });
    // Completing again (an answer lost on the way) gives the same upload.
    const again = await post('/api/chunked-upload/complete', { uploadId });
    expect(again.status).toBe(200);
    expect(((await again.json()) as UploadResponse).url).toBe(answer.url);
    fs.rmSync(file);
  }, 120_000);
});
