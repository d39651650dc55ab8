/**
 * Sums the self time of a V8 CPU profile (`node --cpu-prof`, as `npm run serve -w bench` makes
 * with BENCH_CPU_PROF=dir) by function and by where the code lives: a package, Node's own
 * modules, the server's files (the bundle's source map gives them back), native code, the
 * garbage collector, idle time.
 *   npm run profile -w bench -- <file.cpuprofile or dir> [rows]
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

const maps = new Map<string, SourceMap | null>();
function sourceMapOf(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let map: SourceMap | null = null;
    try {
      const file = fileURLToPath(url);
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url) ?? null;
}

/** Where a frame's code lives, and a readable name for the function. */
function place(frame: CallFrame): { where: string; fn: string } {
  const name = frame.functionName || '(anonymous)';
  const { url } = frame;
  if (!url) {
    return name.startsWith('(')
      ? { where: name, fn: name }
      : { where: '(native)', fn: `${name} (native)` };
  }
  if (url.startsWith('node:')) {
    const module = url.slice(5).replace(/^internal\//, '');
    return { where: `node:${module.split('/')[0]}`, fn: `${name} (${url})` };
  }
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (nm) return { where: nm[1]!, fn: `${name} (${nm[1]}/${nm[2]}:${frame.lineNumber + 1})` };
  const map = url.startsWith('file:') ? sourceMapOf(url) : null;
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry && 'originalSource' in entry && entry.originalSource) {
    const source = entry.originalSource.replace(/^.*?\/(server|contract)\/src\//, '$1/src/');
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
    return {
      where: pkg ?? path.dirname(source),
      fn: `${name} (${source}:${entry.originalLine + 1})`,
    };
  }
  return { where: url, fn: `${name} (${url}:${frame.lineNumber + 1})` };
}

function summarize(file: string, rows: number) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = profile.endTime - profile.startTime;
  const idle = [...self].reduce(
    (s, [id, us]) => (byId.get(id)?.callFrame.functionName === '(idle)' ? s + us : s),
    0,
  );
  const busy = total - idle;
  const byFn = new Map<string, number>();
  const byWhere = new Map<string, number>();
  for (const [id, us] of self) {
    const { where, fn } = place(byId.get(id)!.callFrame);
    if (where === '(idle)') continue;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    byWhere.set(where, (byWhere.get(where) ?? 0) + us);
  }
  const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);
  const share = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, rows);
  console.log(`\n${file}`);
  console.log(
    `  ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy ` +
      `(${((busy / total) * 100).toFixed(0)}%); shares below are of the busy time`,
  );
  console.log('\n  self time by place             ms   share');
  for (const [k, us] of top(byWhere))
    console.log(`  ${k.padEnd(28).slice(0, 28)} ${ms(us)} ${share(us)}`);
  console.log('\n  self time by function          ms   share');
  for (const [k, us] of top(byFn)) console.log(`  ${ms(us)} ${share(us)}  ${k}`);
}

const [target, rowsArg] = process.argv.slice(2);
if (!target) {
  console.error('usage: npm run profile -w bench -- <file.cpuprofile or dir> [rows]');
  process.exit(1);
}
const files = fs.statSync(target).isDirectory()
  ? fs
      .readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f))
  : [target];
for (const f of files) summarize(f, Number(rowsArg ?? 25));
