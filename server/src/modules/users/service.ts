/** Users: creating them (with their API token), their credentials, and the first admin. */
import crypto from 'node:crypto';
import type { Role } from '@upshot/contract';
import type { UserRow } from '../../db/schema.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decrypt, encrypt, hmacHex, randomToken, type Keys } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { toAuthUser } from './presenter.ts';
import type { UserChanges, UserFilter, UsersQueries, UsersRepository } from './repository.ts';

/** The user a request carries (request.auth): who, with what role, and whether active. */
export type AuthUser = {
  id: string;
  role: Role;
  username: string;
  email: string;
  isActive: boolean;
  /** A temporary password was set: only changing it (and signing out) is allowed. */
  mustChangePassword: boolean;
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

  /** Refuses a change that would leave no active administrator but `id`. */
  async function keepAnAdmin(tx: UsersQueries, id: string): Promise<void> {
    if ((await tx.countOtherActiveAdmins(id)) === 0) {
      throw new ConflictError('Upshot needs at least one active administrator');
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

    /** A user by email (in its normal form), or undefined. */
    findByEmail: (email: string) => users.findByEmail(email),

    /** A user as themself or an admin sees them (with their token); anyone else is refused. */
    async getAsViewer(viewer: Viewer, id: string): Promise<UserRow> {
      mayManage(viewer, id);
      return get(id);
    },

    /** Replaces a user's API token (themself or an admin): the old one stops working at once. */
    async regenerateApiToken(viewer: Viewer, id: string): Promise<string> {
      mayManage(viewer, id);
      const current = await get(id);
      const { token, columns } = newApiToken();
      const { api_token_encrypted: encrypted, api_token_digest: digest } = columns;
      // Only over the token read above: of two regenerations at once, one token is handed out.
      if (!(await users.setApiToken(id, current.api_token_digest, encrypted, digest))) {
        throw new ConflictError('The API token was replaced meanwhile; reload to see the new one');
      }
      return token;
    },

    /** A page of users (newest first) and how many match. */
    list: (filter: UserFilter, page: { offset: number; limit: number }) => users.list(filter, page),

    /**
     * Changes a user (administrators). Deactivating or demoting the last active administrator
     * is refused, checked under the `admins` lock so two such changes cannot both pass.
     */
    async update(id: string, changes: UserChanges): Promise<{ before: UserRow; after: UserRow }> {
      return users.withAdminsLock(async (tx) => {
        const before = await tx.findById(id);
        if (!before) throw new NotFoundError('User not found');
        const losesAdmin =
          before.role === 'admin' &&
          before.is_active === 1 &&
          (changes.is_active === 0 || changes.role === 'user');
        if (losesAdmin) await keepAnAdmin(tx, id);
        const result = await tx.update(id, changes);
        if (!result) throw new NotFoundError('User not found');
        if ('conflict' in result)
          throw new ConflictError('A user with this username already exists');
        return { before, after: result.user };
      });
    },

    /**
     * Deletes a user (administrators): never oneself, never the last active administrator.
     * Their uploads, tags, sessions and chunked sessions go with the row; answers the row.
     */
    async delete(actor: Viewer, id: string): Promise<UserRow> {
      if (actor.id === id) throw new ConflictError('You cannot delete your own account');
      return users.withAdminsLock(async (tx) => {
        const row = await tx.findById(id);
        if (!row) throw new NotFoundError('User not found');
        if (row.role === 'admin' && row.is_active === 1) await keepAnAdmin(tx, id);
        await tx.delete(id);
        return row;
      });
    },

    /**
     * Whether password is this user's; answers the hash it was checked against (to change it
     * only if nobody changed it meanwhile), or null when it is not (or no such user).
     */
    async checkPassword(id: string, password: string): Promise<string | null> {
      const row = await users.findById(id);
      const ok = await verifyPassword(row?.password_hash ?? (await dummyHash), password);
      return row !== undefined && ok ? row.password_hash : null;
    },

    /** What a desktop uploader is made from: the user's name and API token (themself or an admin). */
    async uploaderOwner(
      viewer: Viewer,
      id: string,
    ): Promise<{ username: string; apiToken: string }> {
      mayManage(viewer, id);
      const row = await get(id);
      return {
        username: row.username,
        apiToken: decrypt(keys.tokenCipher, row.api_token_encrypted),
      };
    },

    /**
     * Checks an email and password. `user` is null for an unknown email; `passwordOk` says
     * whether the password is this user's (an unknown email costs as long as a wrong password).
     */
    async verifyCredentials(
      email: string,
      password: string,
    ): Promise<{ user: AuthUser | null; passwordOk: boolean; passwordHash: string | null }> {
      const row = await users.findByEmail(email);
      const ok = await verifyPassword(row?.password_hash ?? (await dummyHash), password);
      return {
        user: row ? toAuthUser(row) : null,
        passwordOk: row !== undefined && ok,
        // The hash that was checked: a session opens only while it is still the user's.
        passwordHash: row?.password_hash ?? null,
      };
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
