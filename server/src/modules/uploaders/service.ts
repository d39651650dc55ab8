/**
 * The desktop uploaders a user downloads: a ShareX custom uploader (.sxcu), a bash script and
 * a PowerShell script, each made for one user from PUBLIC_URL and their API token, handing out
 * the link their Link style (linkStyle) names when downloaded.
 */
import fs from 'node:fs';
import type { LinkStyle, ShareXConfig } from '@upshot/contract';
import type { Actor } from '../../lib/caller.ts';
import type { UsersService } from '../users/index.ts';

export type Download = { filename: string; contentType: string; body: string };
export type UploaderOwner = { username: string; apiToken: string; linkStyle: LinkStyle };
export type UploaderKind = 'sharex' | 'bash' | 'powershell';
export type UploadersService = ReturnType<typeof createUploadersService>;

/**
 * The script templates sit in templates/ beside this file, and beside the bundled main.js in
 * server/dist (scripts/server-build.mjs copies them there).
 */
function readTemplate(name: string): string {
  return checkTemplate(
    name,
    fs.readFileSync(new URL(`./templates/${name}`, import.meta.url), 'utf8'),
  );
}

/** A username as a file name: letters, digits, dots, hyphens and underscores only. */
export function fileSafe(username: string): string {
  const safe = username.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|-+$/g, '');
  return safe.slice(0, 64) || 'user';
}

const PLACEHOLDER = /__UPSHOT_(?:URL|TOKEN|USERNAME|LINK)__/g;
/** The only line a placeholder may sit on: a whole single-quoted assignment. */
const ASSIGNMENT = /^\s*\$?[A-Za-z_]\w*\s*=\s*'__UPSHOT_(?:URL|TOKEN|USERNAME|LINK)__'\s*$/;

/**
 * Refuses (at start) a template with a placeholder anywhere but in a quoted assignment, where
 * the escaping below makes any value plain text (a newline in a comment would start code).
 */
function checkTemplate(name: string, template: string): string {
  for (const line of template.split('\n')) {
    if (line.search(PLACEHOLDER) !== -1 && !ASSIGNMENT.test(line)) {
      throw new Error(`${name}: a placeholder outside a quoted assignment: ${line.trim()}`);
    }
  }
  return template;
}

/** Fills the placeholders in one pass (a value holding a placeholder's name stays as it is). */
function render(template: string, values: Record<string, string>, quote: (s: string) => string) {
  return template.replace(PLACEHOLDER, (name) => quote(values[name] ?? ''));
}

/** Inside '...' in bash: a quote closes, is escaped, and reopens. */
const shellQuoted = (s: string) => s.replace(/'/g, `'\\''`);
/** Inside '...' in PowerShell: a quote (typographic ones count too) is doubled. */
const powershellQuoted = (s: string) => s.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q);

export function createUploadersService(deps: {
  publicUrl: string;
  users: UsersService;
  /** The user's linkStyle preference: which link their uploaders hand out. */
  linkStyleOf: (userId: string) => Promise<LinkStyle>;
}) {
  const { publicUrl } = deps;
  const templates = { bash: readTemplate('upshot.sh'), powershell: readTemplate('upshot.ps1') };
  const placeholders = (owner: UploaderOwner) => ({
    __UPSHOT_URL__: publicUrl,
    __UPSHOT_TOKEN__: owner.apiToken,
    __UPSHOT_USERNAME__: owner.username,
    // The scripts' word for it: the file, or its preview page.
    __UPSHOT_LINK__: owner.linkStyle === 'preview' ? 'preview' : 'file',
  });

  const make: Record<UploaderKind, (owner: UploaderOwner) => Download> = {
    sharex(owner) {
      const config: ShareXConfig = {
        Version: '15.0.0',
        Name: `Upshot (${owner.username} on ${new URL(publicUrl).host})`,
        DestinationType: 'ImageUploader, TextUploader, FileUploader',
        RequestMethod: 'POST',
        RequestURL: `${publicUrl}/api/upload`,
        Headers: { 'X-API-Token': owner.apiToken },
        Body: 'MultipartFormData',
        FileFormName: 'file',
        URL: owner.linkStyle === 'preview' ? '{json:previewUrl}' : '{json:url}',
        ThumbnailURL: '{json:upload.thumbnailUrl}',
        DeletionURL: '{json:deletionUrl}',
        ErrorMessage: '{json:message}',
      };
      return {
        filename: `upshot-${fileSafe(owner.username)}.sxcu`,
        contentType: 'application/json; charset=utf-8',
        body: `${JSON.stringify(config, null, 2)}\n`,
      };
    },

    bash(owner) {
      return {
        filename: `upshot-${fileSafe(owner.username)}.sh`,
        contentType: 'text/x-shellscript; charset=utf-8',
        body: render(templates.bash, placeholders(owner), shellQuoted),
      };
    },

    powershell(owner) {
      return {
        filename: `upshot-${fileSafe(owner.username)}.ps1`,
        contentType: 'text/plain; charset=utf-8',
        // Windows PowerShell 5.1 reads a script without a byte-order mark as the ANSI code page.
        body: `\ufeff${render(templates.powershell, placeholders(owner), powershellQuoted)}`,
      };
    },
  };

  return {
    /**
     * A user's uploader of this kind, for themself or an admin (users.uploaderOwner refuses
     * anyone else, and audits an admin's download of another's).
     */
    async download(actor: Actor, userId: string, kind: UploaderKind): Promise<Download> {
      const owner = await deps.users.uploaderOwner(actor, userId, kind);
      return make[kind]({ ...owner, linkStyle: await deps.linkStyleOf(userId) });
    },
  };
}
