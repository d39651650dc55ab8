// Preloaded into a server (`node --import`) by the serving benchmark with BENCH_CPU_PROF: a V8
// CPU profile from one SIGUSR2 to the next (the benchmark sends them around the rows it
// profiles, leaving start-up out), written to BENCH_CPU_PROFILE_FILE. `--cpu-prof` itself is
// not allowed in NODE_OPTIONS on Node 20.
import fs from 'node:fs';
import inspector from 'node:inspector';

const file = process.env.BENCH_CPU_PROFILE_FILE;
if (file) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      session.post('Profiler.start');
      running = true;
      return;
    }
    running = false;
    // The in-thread session answers synchronously.
    session.post('Profiler.stop', (err, result) => {
      if (err) process.stderr.write(`cpu profile: ${err.message}\n`);
      else fs.writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
