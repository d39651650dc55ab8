/** Users: creating them (with their API token), their credentials, and the first admin. */
import crypto from 'node:crypto';
import type { Role } from '@upshot/contract';
import type { UserRow } from '../../db/schema.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decrypt, encrypt, hmacHex, randomToken, type Keys } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { toAuthUser } from './presenter.ts';
import type { UsersRepository } from './repository.ts';

/** The user a request carries (request.auth): who, with what role, and whether active. */
export type AuthUser = {
  id: string;
  role: Role;
  username: string;
  email: string;
  isActive: boolean;
};

/** Enough of a user to decide what they may see or change. */
export type Viewer = Pick<AuthUser, 'id' | 'role'>;

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
  // Unknown emails are checked against this hash so they take as long as a wrong password.
  const dummyHash = hashPassword(randomToken(16));

  /** A new personal API token: stored encrypted (to show it again) and as a lookup digest. */
  function newApiToken() {
    const token = `up_${randomToken(32)}`;
    return {
      token,
      columns: {
        api_token_encrypted: encrypt(keys.tokenCipher, token),
        api_token_digest: hmacHex(keys.tokenLookup, token),
      },
    };
  }

  async function buildRow(input: NewUser) {
    return {
      id: crypto.randomUUID(),
      username: input.username.trim(),
      email: input.email.trim(),
      role: input.role,
      is_active: 1 as const,
      disk_quota: deps.defaultQuotaBytes,
      password_hash: await hashPassword(input.password),
      must_change_password: input.mustChangePassword ? (1 as const) : (0 as const),
      ...newApiToken().columns,
      created_at: clock.now().toISOString(),
    };
  }

  async function get(id: string): Promise<UserRow> {
    const row = await users.findById(id);
    if (!row) throw new NotFoundError('User not found');
    return row;
  }

  /** Only the user themself and admins may read a user's token or change their account. */
  function mayManage(viewer: Viewer, id: string): void {
    if (viewer.id !== id && viewer.role !== 'admin') {
      throw new ForbiddenError('You can only do this for your own account');
    }
  }

  async function insert(
    repo: Pick<UsersRepository, 'insert'>,
    row: Awaited<ReturnType<typeof buildRow>>,
  ) {
    const result = await repo.insert(row);
    if ('conflict' in result) {
      throw new ConflictError(`A user with this ${result.conflict} already exists`);
    }
    return result.user;
  }

  return {
    async create(input: NewUser): Promise<UserRow> {
      return insert(users, await buildRow(input));
    },

    get,

    /** A user as themself or an admin sees them (with their token); anyone else is refused. */
    async getAsViewer(viewer: Viewer, id: string): Promise<UserRow> {
      mayManage(viewer, id);
      return get(id);
    },

    /** Replaces a user's API token (themself or an admin): the old one stops working at once. */
    async regenerateApiToken(viewer: Viewer, id: string): Promise<string> {
      mayManage(viewer, id);
      const { token, columns } = newApiToken();
      const { api_token_encrypted: encrypted, api_token_digest: digest } = columns;
      if (!(await users.setApiToken(id, encrypted, digest))) {
        throw new NotFoundError('User not found');
      }
      return token;
    },

    /** Whether password is this user's (false for an unknown user). */
    async checkPassword(id: string, password: string): Promise<boolean> {
      const row = await users.findById(id);
      const ok = await verifyPassword(row?.password_hash ?? (await dummyHash), password);
      return row !== undefined && ok;
    },

    /**
     * Checks an email and password. `user` is null for an unknown email; `passwordOk` says
     * whether the password is this user's (an unknown email costs as long as a wrong password).
     */
    async verifyCredentials(
      email: string,
      password: string,
    ): Promise<{ user: AuthUser | null; passwordOk: boolean }> {
      const row = await users.findByEmail(email);
      const ok = await verifyPassword(row?.password_hash ?? (await dummyHash), password);
      return { user: row ? toAuthUser(row) : null, passwordOk: row !== undefined && ok };
    },

    /** A desktop client's personal API token -> its user (active or not); null when unknown. */
    async findByApiToken(token: string): Promise<AuthUser | null> {
      const row = await users.findByApiTokenDigest(hmacHex(keys.tokenLookup, token));
      return row ? toAuthUser(row) : null;
    },

    /** The personal API token in clear, for its owner's Settings and uploader configs. */
    revealApiToken(row: Pick<UserRow, 'api_token_encrypted'>): string {
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
        return { user: await insert(tx, row), generatedPassword };
      });
    },
  };
}
