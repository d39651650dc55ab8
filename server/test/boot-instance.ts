/** One "instance" for the bootstrap race test: boots on the environment it is given and exits. */
import { boot } from '../src/boot.ts';

const { app, handle, firstAdmin } = await boot();
process.stdout.write(`${JSON.stringify({ created: firstAdmin !== null })}\n`);
await app.close();
await handle.db.destroy();
