/**
 * A real SMTP server for tests (smtp-server, messages parsed by mailparser), listening on a
 * free local port, plus one that accepts connections and never greets, for timeouts.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  /** The SMTP envelope: who the server was told to deliver to, and from whom. */
  envelope: { from: string; to: string[] };
  /** The credentials the client signed in with (null: none). */
  auth: { username: string; password: string } | null;
  subject: string;
  /** The addresses of the To header. */
  to: string[];
  from: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
};

export type SmtpOptions = {
  /** Refuse RCPT TO (550) for every recipient, or for those the function picks. */
  refuseRecipient?: boolean | ((address: string) => boolean);
  /** Refuse the message after DATA (554). */
  refuseData?: boolean;
};

export type TestSmtp = {
  /** smtp://user:pass@127.0.0.1:PORT: any credentials are accepted, there is no TLS. */
  url: string;
  port: number;
  /** Messages accepted, in order of arrival. */
  messages: ReceivedMail[];
  /** Recipients the server refused (RCPT TO or DATA), in order. */
  refused: string[];
  /** Resolves with the first message (already here or still to come) that matches. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once `n` recipients have been refused. */
  waitForRefusals(n: number, timeoutMs?: number): Promise<string[]>;
  close(): Promise<void>;
};

const addressesOf = (field: unknown): string[] => {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a: { value?: { address?: string }[] }) =>
    (a.value ?? []).map((v) => v.address ?? ''),
  );
};

/** Resolves when `ready()` answers a value, checked now and on every `event` of `events`. */
function waitOn<T>(
  events: EventEmitter,
  event: string,
  ready: () => T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const now = ready();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = ready();
      if (value === undefined) return;
      clearTimeout(timer);
      events.off(event, check);
      resolve(value);
    };
    const timer = setTimeout(() => {
      events.off(event, check);
      reject(new Error(`no ${what} within ${timeoutMs} ms`));
    }, timeoutMs);
    events.on(event, check);
  });
}

export async function startSmtp(options: SmtpOptions = {}): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const refused: string[] = [];
  const events = new EventEmitter();
  const refuses = (address: string) =>
    typeof options.refuseRecipient === 'function'
      ? options.refuseRecipient(address)
      : options.refuseRecipient === true;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    // A connection left open (a client that timed out) must not hold close() up for 30 s.
    closeTimeout: 200,
    onAuth(auth, _session, callback) {
      callback(null, { user: { username: auth.username, password: auth.password } });
    },
    onRcptTo(address, _session, callback) {
      if (refuses(address.address)) {
        refused.push(address.address);
        events.emit('refused');
        const err = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const recipients = session.envelope.rcptTo.map((r) => r.address);
      simpleParser(stream)
        .then((parsed) => {
          if (options.refuseData) {
            refused.push(...recipients);
            events.emit('refused');
            callback(Object.assign(new Error('Message refused'), { responseCode: 554 }));
            return;
          }
          const user = session.user as unknown as { username: string; password: string } | null;
          const from = session.envelope.mailFrom;
          messages.push({
            envelope: { from: from ? from.address : '', to: recipients },
            auth: user ?? null,
            subject: parsed.subject ?? '',
            to: addressesOf(parsed.to),
            from: addressesOf(parsed.from)[0] ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
          });
          events.emit('message');
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  server.on('error', () => undefined); // a client dropping its connection is not a test failure

  const port = await new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve((server.server.address() as net.AddressInfo).port);
    });
  });

  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    port,
    messages,
    refused,
    waitFor: (predicate, timeoutMs = 5000) =>
      waitOn(events, 'message', () => messages.find(predicate), timeoutMs, 'matching message'),
    waitForRefusals: (n, timeoutMs = 5000) =>
      waitOn(
        events,
        'refused',
        () => (refused.length >= n ? [...refused] : undefined),
        timeoutMs,
        `${n} refusals`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that accepts connections and says nothing (a mail server that hangs). */
export async function startSilentServer(): Promise<{
  url: string;
  /** Connections accepted so far. */
  connections: () => number;
  close(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
