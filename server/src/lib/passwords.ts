import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Argon2id (Algorithm.Argon2id is a const enum, which isolated modules cannot import).
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A temporary password: 16 characters from an alphabet without look-alikes (about 90 bits). */
export function temporaryPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let out = '';
  for (let i = 0; i < 16; i += 1) out += alphabet[crypto.randomInt(alphabet.length)];
  return out;
}
