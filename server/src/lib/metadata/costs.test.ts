/**
 * What a file costs the stripper does not grow with what it is made of: a run of JPEG fill
 * bytes is one step, bytes kept one after another leave in one push per chunk that came in,
 * and a file of thousands of tiny segments, chunks or boxes goes through unchanged once its
 * steps run out. Counted in pushes, never in time.
 */
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { manySteps, photoWithMetadata, SECRETS } from '../../../test/images.ts';
import { metadataStripper, strippingChanges } from './index.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Streams `data` through a stripper in 64 KiB chunks; answers what came out and in how many pushes. */
async function strip(data: Buffer) {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += 64 * KiB) chunks.push(data.subarray(at, at + 64 * KiB));
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    metadataStripper(),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        out.push(chunk);
        callback();
      },
    }),
  );
  return { bytes: Buffer.concat(out), pushes: out.length, writes: chunks.length };
}

describe('the metadata stripper', () => {
  it('passes 3 MiB of JPEG fill bytes in a push per chunk, unchanged', async () => {
    const data = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(3 * MiB, 0xff)]);
    const { bytes, pushes, writes } = await strip(data);
    expect(bytes.equals(data)).toBe(true);
    expect(pushes).toBeLessThanOrEqual(writes + 1);
  });

  it('goes on unchanged from a restart marker before the first scan', async () => {
    const photo = await photoWithMetadata('jpeg');
    const restarts = Buffer.alloc(MiB);
    for (let at = 0; at < restarts.length; at += 2) restarts.set([0xff, 0xd0 + ((at / 2) & 7)], at);
    const data = Buffer.concat([photo.subarray(0, 2), restarts, photo.subarray(2)]);
    const { bytes, pushes, writes } = await strip(data);
    expect(bytes.equals(data)).toBe(true);
    expect(pushes).toBeLessThanOrEqual(writes + 1);
  });

  it('strips a PNG with a thousand small chunks before its metadata', async () => {
    const data = await manySteps('png', 1000);
    const { bytes } = await strip(data);
    expect(bytes.includes(SECRETS.iptc)).toBe(false);
    expect(bytes.length).toBeLessThan(data.length);
  });

  it.each([
    ['png', 20_000],
    ['avif', 20_000],
  ] as const)(
    'passes a %s of %i tiny steps unchanged once its steps run out',
    async (format, n) => {
      const data = await manySteps(format, n);
      expect(data.includes(SECRETS.make)).toBe(true);
      const { bytes, pushes, writes } = await strip(data);
      expect(bytes.equals(data)).toBe(true);
      expect(pushes).toBeLessThanOrEqual(2 * writes);
    },
  );

  it('costs the dry run no more memory than the file, whatever size a chunk claims', async () => {
    // A WebP whose XMP chunk says it holds 4 GiB, in 84 bytes.
    const riff = Buffer.alloc(84);
    riff.write('RIFF', 0, 'latin1');
    riff.writeUInt32LE(76, 4);
    riff.write('WEBP', 8, 'latin1');
    riff.write('XMP ', 12, 'latin1');
    riff.writeUInt32LE(0xfffffff0, 16);
    const before = process.memoryUsage().arrayBuffers;
    const changes = await strippingChanges({
      head: riff,
      size: riff.length,
      read: async (start, end) => riff.subarray(start, end + 1),
    });
    expect(changes).toBe(true); // what it cannot see, it copies through the stripper
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * MiB);
  });
});
