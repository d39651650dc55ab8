// Fakes XMLHttpRequest, the network boundary of uploads (fetch cannot report upload progress).
// A test either answers each request in a handler or drives it by hand: progress, respond, fail.
import { vi } from 'vitest';

export type FakeXhrRequest = {
  method: string;
  /** Path and query, e.g. /api/upload. */
  path: string;
  headers: Record<string, string>;
  body: FormData;
  /** Fires an upload progress event. */
  progress(loaded: number, total: number): void;
  /** Answers with a status and an optional JSON body. */
  respond(status: number, body?: unknown): void;
  /** Fails like a dropped connection. */
  fail(): void;
  readonly settled: boolean;
};

type Handler = (request: FakeXhrRequest) => void | Promise<void>;

type ProgressListener = ((event: ProgressEvent) => void) | null;

export function mockXhr(handler?: Handler) {
  const requests: FakeXhrRequest[] = [];

  class FakeXMLHttpRequest {
    upload: { onprogress: ProgressListener } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    statusText = '';
    responseText = '';
    private method = '';
    private url = '';
    private headers: Record<string, string> = {};
    private done = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }

    abort() {
      if (this.done) return;
      this.done = true;
      this.onabort?.();
    }

    send(body: FormData) {
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      const xhr = this;
      const url = new URL(this.url, 'http://localhost');
      const request: FakeXhrRequest = {
        method: this.method,
        path: url.pathname + url.search,
        headers: this.headers,
        body,
        get settled() {
          return xhr.done;
        },
        progress(loaded, total) {
          if (xhr.done) throw new Error('progress after the request settled');
          xhr.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
        },
        respond(status, responseBody) {
          if (xhr.done) throw new Error('request already settled');
          xhr.done = true;
          xhr.status = status;
          xhr.responseText = responseBody === undefined ? '' : JSON.stringify(responseBody);
          xhr.onload?.();
        },
        fail() {
          if (xhr.done) throw new Error('request already settled');
          xhr.done = true;
          xhr.onerror?.();
        },
      };
      requests.push(request);
      // Like the real thing, nothing happens before send() returns.
      if (handler) queueMicrotask(() => void handler(request));
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  return { requests };
}
