/** SECRET_KEY from the environment, or one generated on first start and kept in DATA_DIR. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written whole to a temporary file, then linked into place: link() fails if another
  // instance won the race, and a reader never sees a half-written key.
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${crypto.randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.unlinkSync(tmp);
  }
  return fs.readFileSync(file, 'utf8').trim();
}
