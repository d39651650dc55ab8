/** The process: boot (config -> database -> migrations -> first admin), then serve. */
import { boot } from './boot.ts';
import { ConfigError } from './config.ts';
import { stdoutLogStream } from './lib/log-stream.ts';
import { serve } from './serve.ts';

async function main(): Promise<void> {
  const logStream = stdoutLogStream();
  await serve(await boot(undefined, { logStream }), logStream);
}

main().catch((err: unknown) => {
  const text =
    err instanceof ConfigError
      ? err.message
      : `Upshot failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
  process.stderr.write(`${text}\n`);
  process.exit(1);
});
