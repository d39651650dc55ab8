/** Creating users (with their API token) and the first-admin bootstrap. */
import crypto from 'node:crypto';
import type { Role } from '@upshot/contract';
import type { UserRow } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { ConflictError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decrypt, encrypt, hmacHex, randomToken, type Keys } from '../../lib/crypto.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { UsersRepository } from './repository.ts';

export type NewUser = {
  email: string;
  username: string;
  role: Role;
  password: string;
  mustChangePassword?: boolean;
};

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: {
  users: UsersRepository;
  keys: Keys;
  clock: Clock;
  defaultQuotaBytes: number;
}) {
  const { users, keys, clock } = deps;

  async function buildRow(input: NewUser) {
    const apiToken = `up_${randomToken(32)}`;
    return {
      id: crypto.randomUUID(),
      username: input.username,
      email: input.email,
      role: input.role,
      is_active: 1 as const,
      disk_quota: deps.defaultQuotaBytes,
      password_hash: await hashPassword(input.password),
      must_change_password: input.mustChangePassword ? (1 as const) : (0 as const),
      api_token_encrypted: encrypt(keys.tokenCipher, apiToken),
      api_token_digest: hmacHex(keys.tokenLookup, apiToken),
      created_at: clock.now().toISOString(),
    };
  }

  async function insertUnique(
    repo: UsersRepository,
    row: Awaited<ReturnType<typeof buildRow>>,
  ): Promise<UserRow> {
    try {
      return await repo.insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ConflictError('A user with this email or username already exists');
      }
      throw err;
    }
  }

  return {
    async create(input: NewUser): Promise<UserRow> {
      return insertUnique(users, await buildRow(input));
    },

    /** The personal API token in clear, for its owner's Settings and uploader configs. */
    revealApiToken(row: UserRow): string {
      return decrypt(keys.tokenCipher, row.api_token_encrypted);
    },

    /**
     * When there are no users yet, creates the first admin from the configured credentials,
     * or admin@localhost with a random password that the caller prints once.
     */
    async ensureFirstAdmin(configured: {
      email?: string;
      password?: string;
      username?: string;
    }): Promise<{ user: UserRow; generatedPassword?: string } | null> {
      if ((await users.count()) > 0) return null;
      const generatedPassword = configured.password ? undefined : randomToken(12);
      const input: NewUser = {
        email: configured.email ?? 'admin@localhost',
        username: configured.username ?? 'admin',
        role: 'admin',
        password: configured.password ?? (generatedPassword as string),
        mustChangePassword: generatedPassword !== undefined,
      };
      const row = await buildRow(input); // hashed before the lock is taken
      return users.withBootstrapLock(async (tx) => {
        if ((await tx.count()) > 0) return null;
        return { user: await insertUnique(tx, row), generatedPassword };
      });
    },
  };
}
