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
