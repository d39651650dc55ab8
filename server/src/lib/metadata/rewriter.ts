/**
 * A Transform that rewrites a file as it streams, driven by a container parser that looks at
 * the bytes ahead and says what to do with them: keep, drop or overwrite a stretch, or put
 * other bytes in place of a few. Only what the parser asks to see is held (a segment header, a
 * metadata block of bounded size); everything else flows through. When the parser cannot make
 * sense of the bytes (it throws, or asks for something impossible), the rest of the file goes
 * through unchanged: a malformed picture is stored, never refused. So does a file that takes
 * too many steps (thousands of tiny segments, chunks or boxes): a step costs far more than a
 * byte, and no picture needs that many.
 */
import { Transform } from 'node:stream';

/** What to do with the bytes at the current position. */
export type Step =
  /** Call again once at least this many bytes are in view. */
  | { need: number }
  /** Send on the next n bytes unchanged. */
  | { keep: number }
  /** Leave the next n bytes out. */
  | { drop: number }
  /** Send n copies of `byte` in place of the next n bytes. */
  | { fill: number; byte: number }
  /** Send `bytes` in place of the next `skip` bytes, which must be in view. */
  | { put: Buffer; skip: number }
  /** Send on everything from here unchanged. */
  | { rest: true };

/**
 * A container parser: called with the bytes in view at absolute `position`, answers a step.
 * It keeps its own state between calls.
 */
export type Parser = (view: Buffer, position: number) => Step;

/** The most a parser may ask to hold at once. */
export const MAX_VIEW = 1024 * 1024;

/**
 * The steps a file gets: MAX_STEPS, and one more for every STEP_BYTES it has passed (a large PNG
 * of small IDAT chunks is read to its end, its metadata often comes last); past them, the rest
 * goes through unchanged.
 */
export const MAX_STEPS = 4096;
export const STEP_BYTES = 1024;

/** Whether a parser that has taken `steps` steps may take another at `position`. */
export function withinSteps(steps: number, position: number): boolean {
  return steps < MAX_STEPS + position / STEP_BYTES;
}

export function rewriter(
  parser: Parser,
  options: { maxInput?: number; tooLarge?: () => Error } = {},
) {
  const maxInput = options.maxInput ?? Infinity;
  let view: Buffer = Buffer.alloc(0);
  let held: Buffer[] = [];
  let heldBytes = 0;
  let waitFor = 0;
  let position = 0;
  let input = 0;
  // The streaming step under way and the bytes it still applies to.
  let current: { kind: 'keep' | 'drop' | 'fill'; left: number; byte: number } | null = null;
  let rest = false;
  let steps = 0;

  function run(out: Transform) {
    // Bytes kept one after another (views of `view`, end to end) leave in one push, however
    // many steps kept them.
    let kept: Buffer | null = null;
    const keep = (bytes: Buffer) => {
      if (
        kept &&
        kept.buffer === bytes.buffer &&
        kept.byteOffset + kept.length === bytes.byteOffset
      ) {
        kept = Buffer.from(kept.buffer, kept.byteOffset, kept.length + bytes.length);
        return;
      }
      if (kept) out.push(kept);
      kept = bytes;
    };
    const send = (bytes: Buffer) => {
      if (bytes.length === 0) return;
      if (kept) out.push(kept);
      kept = null;
      out.push(bytes);
    };
    try {
      for (;;) {
        if (rest) {
          if (view.length > 0) keep(view);
          view = Buffer.alloc(0);
          return;
        }
        if (current) {
          const n = Math.min(current.left, view.length);
          if (n === 0) return;
          if (current.kind === 'keep') keep(view.subarray(0, n));
          else if (current.kind === 'fill') send(Buffer.alloc(n, current.byte));
          view = view.subarray(n);
          position += n;
          current.left -= n;
          if (current.left === 0) current = null;
          continue;
        }
        let step: Step;
        try {
          step = withinSteps(steps++, position) ? parser(view, position) : { rest: true };
        } catch {
          step = { rest: true };
        }
        if ('rest' in step) rest = true;
        else if ('need' in step) {
          if (step.need <= view.length || step.need > MAX_VIEW) rest = true;
          else {
            waitFor = step.need;
            return;
          }
        } else if ('put' in step) {
          if (step.skip < 0 || step.skip > view.length) rest = true;
          else {
            send(step.put);
            view = view.subarray(step.skip);
            position += step.skip;
          }
        } else {
          const [kind, n] =
            'keep' in step
              ? (['keep', step.keep] as const)
              : 'drop' in step
                ? (['drop', step.drop] as const)
                : (['fill', step.fill] as const);
          if (!(n > 0) || !Number.isSafeInteger(n)) rest = true;
          else current = { kind, left: n, byte: 'byte' in step ? step.byte : 0 };
        }
      }
    } finally {
      if (kept) out.push(kept);
    }
  }

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      input += chunk.length;
      if (input > maxInput) return callback(options.tooLarge?.() ?? new Error('input too large'));
      // While the parser waits for a view, chunks are held and joined once, when enough came.
      if (waitFor > 0 && view.length + heldBytes + chunk.length < waitFor) {
        held.push(chunk);
        heldBytes += chunk.length;
        return callback();
      }
      view = view.length + heldBytes === 0 ? chunk : Buffer.concat([view, ...held, chunk]);
      held = [];
      heldBytes = 0;
      waitFor = 0;
      run(this);
      callback();
    },
    flush(callback) {
      // A file that ends where the parser expected more: what is left goes as it came.
      const left = Buffer.concat([view, ...held]);
      if (left.length > 0) this.push(left);
      callback();
    },
  });
  return stream;
}
