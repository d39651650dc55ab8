/**
 * A server with the process guard and one route whose work throws after the response, outside
 * any promise the request awaits: the test checks the error is logged with its stack and
 * the process keeps serving.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { installProcessGuard } from '../src/plugins/process-guard.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-guard-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: '0' });
const handle = openDatabase(config);
await migrateToLatest(handle);
const { app } = await buildApp({ config, db: handle.db, secretKey: 'g'.repeat(40) });
installProcessGuard(app.log);
app.get('/test/escape', async () => {
  const emitter = new EventEmitter();
  setImmediate(() => emitter.emit('error', new Error('escaped from its request')));
  return { ok: true };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${address}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
