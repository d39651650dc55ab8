/**
 * Where the server's log lines go: standard output, written without ever blocking the event
 * loop. A reader that stops reading (a stalled pipe) holds back at most MAX_HELD_BYTES of lines
 * (later ones are dropped); one that has gone away ends the writing. At shutdown the lines held
 * are flushed for a bounded time, never synchronously: a synchronous flush to a stalled pipe
 * retries forever, and no timer can end the process while it does.
 */
import SonicBoom from 'sonic-boom';

const MAX_HELD_BYTES = 16 * 1024 * 1024;

export type LogStream = NodeJS.WritableStream & {
  /** Ends the stream: resolves once what is held is written, or after `ms` whatever is left. */
  endWithin(ms: number): Promise<void>;
};

export function stdoutLogStream(fd = 1): LogStream {
  const stream = new SonicBoom({ fd, sync: false, maxLength: MAX_HELD_BYTES });
  let gone = false;
  // EPIPE: nobody reads any more. Any other error: nothing better to do with a log line.
  stream.on('error', () => {
    gone = true;
  });
  return Object.assign(stream as unknown as NodeJS.WritableStream, {
    endWithin(ms: number): Promise<void> {
      if (gone) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        // 'close' once every line held is written (standard output itself stays open).
        stream.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        stream.end();
        // A line logged after this is dropped (an ended stream throws on write).
        stream.write = () => true;
      });
    },
  });
}
