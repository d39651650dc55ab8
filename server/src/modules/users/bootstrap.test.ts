import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import {
  childEnv,
  createTestContext,
  createTestDatabase,
  type TestContext,
} from '../../../test/context.ts';
import { login } from '../../../test/users.ts';

const execFileAsync = promisify(execFile);
const serverDir = new URL('../../../', import.meta.url).pathname;
const instanceScript = path.join(serverDir, 'test/boot-instance.ts');

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('first-admin bootstrap', () => {
  it('creates the first admin from ADMIN_* settings when there are no users', async () => {
    ctx = await createTestContext({
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'boss-password-1',
      ADMIN_USERNAME: 'boss',
    });
    const first = await ctx.modules.users.service.ensureFirstAdmin(ctx.config.admin);
    expect(first?.generatedPassword).toBeUndefined();
    expect(first?.user).toMatchObject({
      email: 'Boss@Example.com',
      username: 'boss',
      role: 'admin',
    });

    const token = await login(ctx, 'boss@example.com', 'boss-password-1');
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json()).toMatchObject({ username: 'boss', role: 'admin', isActive: true });

    // A second start finds a user and does nothing.
    expect(await ctx.modules.users.service.ensureFirstAdmin(ctx.config.admin)).toBeNull();
  });

  it('without settings, creates admin@localhost with a random password that signs in', async () => {
    ctx = await createTestContext();
    const first = await ctx.modules.users.service.ensureFirstAdmin(ctx.config.admin);
    expect(first?.user).toMatchObject({
      email: 'admin@localhost',
      username: 'admin',
      role: 'admin',
    });
    const password = first?.generatedPassword ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    const token = await login(ctx, 'admin@localhost', password);
    expect(token).toBeTruthy();
    const rows = await ctx.handle.db.selectFrom('users').select('must_change_password').execute();
    expect(rows).toEqual([{ must_change_password: 1 }]);
  });

  it('is race-free: instances starting together on one fresh database make one admin', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-race-'));
    const database = await createTestDatabase();
    const env = childEnv({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url ?? '',
      SECRET_KEY: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      ADMIN_USERNAME: '',
    });
    try {
      // Separate processes, as separate instances would be; each also runs the migrations.
      const outputs = await Promise.all(
        [1, 2, 3, 4].map(() =>
          execFileAsync(process.execPath, ['--import', 'tsx', instanceScript], {
            env,
            cwd: serverDir,
          }),
        ),
      );
      const created = outputs.map(
        (o) => JSON.parse(o.stdout.trim().split('\n').pop() ?? '{}').created,
      );
      expect(created.filter(Boolean)).toHaveLength(1);

      const handle = openDatabase({ databaseUrl: database.url, dataDir });
      const users = await handle.db.selectFrom('users').select(['email', 'role']).execute();
      await handle.db.destroy();
      expect(users).toEqual([{ email: 'admin@localhost', role: 'admin' }]);
    } finally {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
