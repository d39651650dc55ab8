/**
 * Reads a multipart/form-data upload as it streams: the fields sent before the file, then the
 * file's bytes as a stream, then the end of the body. Every way a body can be wrong (no
 * boundary, cut short, a client gone mid-part, another file or field after the file, a field
 * too long) ends in a ValidationError on the promise the route awaits, and every stream has an
 * error listener from the moment it exists, so nothing a client sends can end the process.
 */
import { PassThrough, type Readable } from 'node:stream';
import Busboy, { type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ValidationError } from '../errors.ts';

export type MultipartFile = {
  /** The fields that came before the file part. */
  fields: Record<string, string>;
  filename: string;
  mimeType: string;
  /** The file's bytes; errors with a ValidationError when the body turns out to be broken. */
  stream: Readable;
  /** Settles when the whole body has been read: rejects when anything after the file was wrong. */
  finished: Promise<void>;
};

/** Lets multipart requests through Fastify's body parsing untouched: routes read them as they stream. */
export function registerMultipart(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
}

const CUT_SHORT = 'The multipart body ended early or is malformed';

export function readMultipartFile(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { fileField: string; maxFields?: number; maxFieldBytes?: number; usage: string },
): Promise<MultipartFile> {
  const { fileField, maxFields = 10, maxFieldBytes = 1024, usage } = options;
  const contentType = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) throw new ValidationError(usage);

  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: request.raw.headers as BusboyHeaders,
      limits: { files: 1, fields: maxFields, parts: maxFields + 1, fieldSize: maxFieldBytes },
    });
  } catch {
    throw new ValidationError(`${usage} (the content type has no boundary)`);
  }

  const raw = request.raw;
  const fields: Record<string, string> = {};
  // The file's bytes go through a stream of ours, so an error from the parser reaches the
  // reader as one error, whoever listens at the time.
  const file = new PassThrough({ highWaterMark: 1024 * 1024 });
  file.on('error', () => {}); // the reader has its own listener; this one keeps the process safe
  let fileSeen = false;
  let failure: AppError | null = null;
  let settleStart!: { resolve: (f: MultipartFile) => void; reject: (e: Error) => void };
  let settleEnd!: { resolve: () => void; reject: (e: Error) => void };
  const started = new Promise<MultipartFile>((resolve, reject) => {
    settleStart = { resolve, reject };
  });
  const finished = new Promise<void>((resolve, reject) => {
    settleEnd = { resolve, reject };
  });
  finished.catch(() => {}); // awaited by the route only once the file has been stored

  const fail = (reason: string | AppError) => {
    if (failure) return;
    failure = typeof reason === 'string' ? new ValidationError(reason) : reason;
    raw.unpipe(parser);
    if (fileSeen) file.destroy(failure);
    settleStart.reject(failure);
    settleEnd.reject(failure);
  };

  parser.on(
    'field',
    (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (fileSeen) return fail(`The field "${name}" must come before the file`);
      if (valueTruncated) return fail(`The field "${name}" is longer than ${maxFieldBytes} bytes`);
      fields[name] = value;
    },
  );
  parser.on(
    'file',
    (name: string, stream: Readable, filename: string, _enc: string, mime: string) => {
      stream.on('error', (err: Error) => fail(`${CUT_SHORT}: ${err.message}`));
      if (name !== fileField) {
        stream.resume();
        return fail(`Unexpected file field "${name}": send the file in "${fileField}"`);
      }
      fileSeen = true;
      stream.pipe(file);
      settleStart.resolve({
        fields,
        // Browsers and curl (7.81+) send a quote in a file name as %22 (WHATWG form encoding).
        filename: (filename ?? '').replace(/%22/g, '"'),
        mimeType: mime ?? '',
        stream: file,
        finished,
      });
    },
  );
  parser.on('filesLimit', () => fail('Send one file per request'));
  parser.on('fieldsLimit', () => fail(`Send at most ${maxFields} fields`));
  parser.on('partsLimit', () => fail(`Send at most ${maxFields} fields and one file`));
  parser.on('error', (err: Error) => fail(`${CUT_SHORT}: ${err.message}`));
  parser.on('finish', () => {
    if (failure) return;
    if (!fileSeen) return fail(`${fileField} is required`);
    settleEnd.resolve();
  });
  // A client that goes away before the end of its body.
  raw.on('close', () => {
    if (!raw.readableEnded) fail('The upload was interrupted before the end of the body');
  });
  // An AppError is the server's own reason (the body stopped arriving: plugins/body-timeout.ts).
  raw.on('error', (err) =>
    fail(err instanceof AppError ? err : 'The upload was interrupted before the end of the body'),
  );
  // An answer sent before the body was read (a refusal of its fields, an error, a malformed
  // part) leaves the rest of it unread, and a paused request never sees its client go away:
  // the connection would stay open for good. The rest is read and dropped, as Node does for a
  // body nobody reads.
  reply.raw.once('finish', () => {
    if (raw.readableEnded) return;
    raw.unpipe(parser);
    raw.resume();
  });
  raw.pipe(parser);
  return started;
}
