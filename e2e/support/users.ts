/**
 * Creates a user straight in a running server's SQLite database, through the server's own users
 * module (the same hashing, token and quota rules as the app). It stands in until the admin API
 * for creating users exists; then tests should create users over HTTP like everything else.
 */
import type { Role } from '@upshot/contract';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/database.ts';
import { systemClock } from '../../server/src/lib/clock.ts';
import { deriveKeys } from '../../server/src/lib/crypto.ts';
import { resolveSecretKey } from '../../server/src/lib/secret-key.ts';
import { createUsersModule } from '../../server/src/modules/users/index.ts';
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
    const users = createUsersModule({
      db: handle.db,
      keys: deriveKeys(resolveSecretKey(config.secretKey, config.dataDir)),
      clock: systemClock,
      defaultQuotaBytes: config.defaultQuotaBytes,
    });
    const row = await users.service.create(user);
    return row.id;
  } finally {
    await handle.db.destroy();
  }
}
