/**
 * s3rver, as the tests run it (server/test/s3.ts), in a process of its own, so the store does
 * not share the benchmark client's event loop. Prints one JSON line,
 * { endpoint, dir, bucket }, once it answers; SIGTERM stops it and removes its data.
 *   node --import tsx support/s3rver.ts
 */
import { startS3 } from '../../server/test/s3.ts';

const s3 = await startS3();
const bucket = await s3.createBucket();
process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, dir: s3.dir, bucket })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  s3.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The benchmark went away without a signal: do not outlive it.
process.stdin.on('end', stop);
process.stdin.resume();
