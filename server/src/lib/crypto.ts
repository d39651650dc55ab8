/** Token generation, digests and the API-token cipher, all keyed from SECRET_KEY. */
import crypto from 'node:crypto';

export type Keys = { tokenCipher: Buffer; tokenLookup: Buffer; signing: Buffer };

export function deriveKeys(secretKey: string): Keys {
  const derive = (info: string) =>
    Buffer.from(crypto.hkdfSync('sha256', secretKey, 'upshot', info, 32));
  return {
    tokenCipher: derive('api-token-encryption'),
    tokenLookup: derive('api-token-lookup'),
    signing: derive('url-signing'),
  };
}

/**
 * What the database keeps to recognize its secret key (db/key-check.ts): a key derived for
 * that alone, from which neither SECRET_KEY nor the other keys can be worked out.
 */
export function keyCheckDigest(secretKey: string): string {
  return Buffer.from(crypto.hkdfSync('sha256', secretKey, 'upshot', 'key-check', 32)).toString(
    'hex',
  );
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** An HMAC-SHA256 in hex. A key used often is best a KeyObject: made once, not per call. */
export function hmacHex(key: Buffer | crypto.KeyObject, value: string): string {
  return crypto.createHmac('sha256', key).update(value).digest('hex');
}

/** AES-256-GCM; output is base64url(iv | tag | ciphertext). */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function decrypt(key: Buffer, encoded: string): string {
  const raw = Buffer.from(encoded, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
