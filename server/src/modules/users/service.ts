/**
 * Users: creating them (with their API token), their credentials and tokens, the rules that
 * keep an active administrator, and the first admin. Sign-in reads them through here;
 * management.ts manages them for administrators.
 */
import crypto from 'node:crypto';
import type { Role } from '@upshot/contract';
import type { Actor, AuthUser, Viewer } from '../../lib/caller.ts';
import type { UserRow } from '../../db/schema.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decrypt, encrypt, hmacHex, randomToken, type Keys } from '../../lib/crypto.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { AuditService } from '../audit/index.ts';
import { canManageAccount } from './policy.ts';
import { toAuthUser } from './presenter.ts';
import type { UserChanges, UserFilter, UsersQueries, UsersRepository } from './repository.ts';

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
  /** Where an admin's read or change of another user's token is recorded. */
  audit: AuditService;
  keys: Keys;
  clock: Clock;
  defaultQuotaBytes: number;
}) {
  const { users, audit, keys, clock } = deps;
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

  function mayManage(viewer: Viewer, id: string): void {
    if (!canManageAccount(viewer, id)) {
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

    /**
     * A user with their API token in clear, as themself or an admin reads them (an admin's
     * read of another's is audited); anyone else is refused.
     */
    async readWithToken(actor: Actor, id: string): Promise<{ row: UserRow; apiToken: string }> {
      mayManage(actor, id);
      const row = await get(id);
      await audit.onOtherUser(actor, row, 'user.token_read');
      return { row, apiToken: decrypt(keys.tokenCipher, row.api_token_encrypted) };
    },

    /**
     * Replaces a user's API token (themself or an admin, audited when it is another's): the
     * old one stops working at once.
     */
    async regenerateApiToken(actor: Actor, id: string): Promise<string> {
      mayManage(actor, id);
      const current = await get(id);
      const { token, columns } = newApiToken();
      const { api_token_encrypted: encrypted, api_token_digest: digest } = columns;
      // Only over the token read above: of two regenerations at once, one token is handed out.
      if (!(await users.setApiToken(id, current.api_token_digest, encrypted, digest))) {
        throw new ConflictError('The API token was replaced meanwhile; reload to see the new one');
      }
      await audit.onOtherUser(actor, current, 'user.token_regenerated');
      return token;
    },

    /** A page of users (newest first) and how many match. */
    list: (filter: UserFilter, page: { page: number; limit: number }) => users.list(filter, page),

    /** Every active administrator (to notify them). */
    async activeAdmins(): Promise<UserRow[]> {
      const { rows } = await users.list({ role: 'admin', active: true }, { page: 1, limit: 1000 });
      return rows;
    },

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

    /**
     * What a desktop uploader is made from: the user's name and API token (themself or an
     * admin; an admin's download of another's is audited, with the kind of uploader).
     */
    async uploaderOwner(
      actor: Actor,
      id: string,
      kind: string,
    ): Promise<{ username: string; apiToken: string }> {
      mayManage(actor, id);
      const row = await get(id);
      await audit.onOtherUser(actor, row, 'user.config_downloaded', { kind });
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

    /** The personal API token in clear, for its owner's Settings and desktop uploaders. */
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
