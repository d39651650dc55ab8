/**
 * Creates a user straight in a running server's SQLite database, through the server's own users
 * service (the same hashing, token and quota rules as the app), with the password given: a
 * ready-to-use user without a temporary password (which a user made through the admin API must
 * replace first), for tests that are not about administration, and as the accounts an
 * administration test works on. Making users is tested through the Admin screen.
 */
import type { Role } from '@upshot/contract';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import { systemClock } from '../../server/src/lib/clock.ts';
import { deriveKeys } from '../../server/src/lib/crypto.ts';
import { resolveSecretKey } from '../../server/src/lib/secret-key.ts';
import { createAuditModule } from '../../server/src/modules/audit/index.ts';
import { createAccounts } from '../../server/src/modules/users/index.ts';
// Types only: the route config field declared there is used by the module types above, and
// nothing else in this program's import graph brings that declaration in.
import type {} from '../../server/src/plugins/security.ts';
import type { RunningServer } from './server.ts';

export type NewTestUser = { email: string; username: string; password: string; role: Role };

/** The new user's id. The server must run on SQLite (no DATABASE_URL), as startServer starts it. */
export async function createUser(server: RunningServer, user: NewTestUser): Promise<string> {
  // The server's DATA_DIR alone: the database file and the secret key it generated live there.
  const config = loadConfig({ DATA_DIR: server.dataDir });
  const handle = openDatabase(config);
  try {
    const users = createAccounts({
      db: handle.db,
      keys: deriveKeys(resolveSecretKey(config.secretKey, config.dataDir)),
      clock: systemClock,
      defaultQuotaBytes: config.defaultQuotaBytes,
      audit: createAuditModule({ db: handle.db, clock: systemClock }).service,
    });
    const row = await users.create(user);
    return row.id;
  } finally {
    await handle.db.destroy();
  }
}
