/**
 * Whether stripping would change a stored file, found without reading it all: its container's
 * parser is run dry over its first bytes, and over a few ranged reads where a step goes past
 * them (a WebP's EXIF and XMP come after its image data, an AVIF's meta box may follow its
 * mdat). The answer is yes when a step would leave bytes out or send others in their place, or
 * when the reads run out first; no when the parser reaches what it sends on unread, or the
 * file's end, without one. The steps are the stripper's (rewriter.ts), within the same limits.
 */
import { MAX_VIEW, withinSteps, type Parser, type Step } from './rewriter.ts';

/** Bytes [start, end] of the file (inclusive, as in HTTP Range); fewer when it is shorter. */
export type ReadRange = (start: number, end: number) => Promise<Buffer>;

/** What the first read should hold: enough for a JPEG's header or a meta box, at most. */
export const PROBE_HEAD_BYTES = MAX_VIEW;
/** Further reads after the head, each of at least MORE_BYTES, before the answer is yes. */
const MAX_READS = 8;
const MORE_BYTES = 64 * 1024;

const lengthOf = (step: Step): number =>
  'keep' in step ? step.keep : 'drop' in step ? step.drop : 'fill' in step ? step.fill : 0;

export async function wouldChange(
  parser: Parser,
  file: { head: Buffer; size: number; read: ReadRange },
): Promise<boolean> {
  const { size } = file;
  let view = file.head.subarray(0, size); // the bytes in view, from `position` on
  let position = 0;
  let reads = 0;
  for (let steps = 0; position < size; steps++) {
    let step: Step;
    try {
      step = withinSteps(steps, position) ? parser(view, position) : { rest: true };
    } catch {
      return false;
    }
    if ('rest' in step) return false;
    if ('need' in step) {
      // Past MAX_VIEW, or past the end of the file: the stripper sends the rest as it is.
      if (step.need <= view.length || step.need > MAX_VIEW || position + step.need > size) {
        return false;
      }
      if (reads++ === MAX_READS) return true;
      const from = position + view.length;
      const more = await file.read(from, position + Math.max(step.need, MORE_BYTES) - 1);
      if (more.length === 0) return true;
      view = Buffer.concat([view, more]);
      continue;
    }
    if ('put' in step) {
      if (step.skip < 0 || step.skip > view.length) return false;
      if (!step.put.equals(view.subarray(0, step.skip))) return true;
      view = view.subarray(step.skip);
      position += step.skip;
      continue;
    }
    const n = lengthOf(step);
    if (!(n > 0) || !Number.isSafeInteger(n)) return false;
    if ('drop' in step) return true;
    // A stretch overwritten with what it holds already changes nothing (a stripped WebP). Its
    // length is the file's word: compared byte by byte, never allocated, and one past what is
    // in view is copied rather than read (the stripper sends what the file really holds).
    if ('fill' in step) {
      if (n > view.length) return true;
      for (let i = 0; i < n; i++) if (view[i] !== step.byte) return true;
    }
    position += n;
    view = n < view.length ? view.subarray(n) : Buffer.alloc(0);
  }
  return false;
}
