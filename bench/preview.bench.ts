/**
 * The preview page of a 512 KiB source file (`GET /v/{slug}`: the lookup, the gate, the text
 * read and escaped into the page), beside `GET /api/health` in the same run, on each engine
 * (SQLite, then PostgreSQL). Calls one after another, after a warm-up; median and p95.
 * Target: p95 under 50 ms.
 *
 *   npm run preview -w bench
 * BENCH_CALLS (default 300) per row.
 */
import {
  BENCH_ENV,
  fmt,
  median,
  onEachEngine,
  percentile,
  signInToken,
  startServer,
  timed,
} from './support/common.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? '300');
if (!Number.isInteger(CALLS) || CALLS < 1)
  throw new Error('BENCH_CALLS: a whole number, 1 or more');

/** 512 KiB of Python-looking source, with characters the page must escape. */
function source(): Buffer {
  const line = 'def f(a, b):  # "<tag>" & \'quote\' -> a < b and b > a\n';
  return Buffer.from(line.repeat(Math.ceil((512 * 1024) / line.length))).subarray(0, 512 * 1024);
}

async function times(n: number, url: string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const { ms: took, value } = await timed(async () => {
      const res = await fetch(url);
      await res.arrayBuffer();
      return res;
    });
    if (!value.ok) throw new Error(`${url}: ${value.status}`);
    ms.push(took);
  }
  return ms.sort((a, b) => a - b);
}

const row = (what: string, sorted: number[]) =>
  `      ${what.padEnd(28)} median ${fmt(median(sorted), 2)} ms, p95 ${fmt(percentile(sorted, 95), 2)} ms`;

console.log(`\nThe preview page of a 512 KiB text, ${CALLS} calls one after another per row`);
await onEachEngine(
  async (label, databaseUrl) => {
    const server = await startServer({
      ...BENCH_ENV,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    try {
      const token = await signInToken(server.url);
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(source())], { type: 'text/x-python' }),
        'big.py',
      );
      const res = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      const { upload } = (await res.json()) as { upload: { shortCode: string } };
      const page = `${server.url}/v/${upload.shortCode}`;
      const health = `${server.url}/api/health`;
      // Warm-up, not reported.
      await times(50, page);
      await times(50, health);
      const pages = await times(CALLS, page);
      const healths = await times(CALLS, health);
      console.log(`\n  ${label}`);
      console.log(row('GET /api/health', healths));
      console.log(row('GET /v/{slug}, 512 KiB text', pages));
      const p95 = percentile(pages, 95);
      console.log(`      p95 under 50 ms: ${p95 < 50 ? 'met' : 'not met'}`);
    } finally {
      await server.stop();
    }
  },
  { postgres: 'postgres://postgres@127.0.0.1:5432/postgres' },
);
