/**
 * The authorization matrix: every route of the route table, called by every kind of caller
 * (test/callers.ts: nobody, tokens never issued, an expired session, the owner by session and
 * by API token, another user, an administrator by session and by token, a user whose password
 * must change, a deactivated user by session and by token, an inactive user's leftover
 * session), on the owner's resources and, for a user's account, on the caller's own; GETs again
 * as HEAD. Each answer is compared with the one expected (test/matrix-cases.ts: its status, and
 * the error code of a refusal), a refusal must be a clean `{ error, message }`, and where a call
 * changes something the change must be there exactly when it was allowed. The requests are
 * counted (about 1,270): none may answer anything unexpected.
 */
import { API, type Endpoint, type EndpointName } from '@upshot/contract';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLER_KINDS, SIGNED_OUT, WHO, createCallers, nextAddress } from '../../test/callers.ts';
import type { CallerKind, People, Person } from '../../test/callers.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { startSmtp, type TestSmtp } from '../../test/mail.ts';
import { refusalProblem, requestFor, type Input } from '../../test/route-requests.ts';
import { CASES, type Case } from '../../test/matrix-cases.ts';
import type { Resources, World } from '../../test/matrix-fixtures.ts';
import { uploadFile } from '../../test/uploads.ts';
import { createWebDist, INDEX_HTML, type WebDist } from '../../test/web-dist.ts';

let ctx: TestContext;
let dist: WebDist;
let smtp: TestSmtp;
let callers: ReturnType<typeof createCallers>;
let shared: People;
let resources: Resources;

beforeAll(async () => {
  smtp = await startSmtp();
  dist = createWebDist();
  ctx = await createTestContext(
    {
      PUBLIC_URL: 'https://up.example.com',
      SMTP_URL: smtp.url,
      METRICS_TOKEN: 'metrics-token-0123456789abcdef',
    },
    { webDistDir: dist.dir },
  );
  callers = createCallers(ctx);
  shared = await callers.people();
  const owner = { authorization: `Bearer ${shared.owner.session}` };
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
    .png()
    .toBuffer();
  const put = async (isPublic: boolean) => {
    const res = await uploadFile(
      ctx,
      owner,
      { filename: `dot-${isPublic}.png`, contentType: 'image/png', data: png },
      { isPublic: String(isPublic) },
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ upload: { id: string; shortCode: string }; deletionUrl: string }>();
  };
  const privateOne = await put(false);
  const publicOne = await put(true);
  // Thumbnails are made by the background runner.
  await ctx.background.drain();
  resources = {
    privateUpload: privateOne.upload,
    publicUpload: publicOne.upload,
    deletionSignature: new URL(privateOne.deletionUrl).searchParams.get('signature')!,
  };
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
  dist?.remove();
});

/**
 * Fresh people for a case that changes an account: the owner, and the caller (should a refusal
 * be missed, the change lands on these, not on the people the other cases use).
 */
async function freshPeople(kind: CallerKind): Promise<People> {
  const who = { ...shared, owner: await callers.person() };
  const name = WHO[kind].person;
  if (name && name !== 'owner') who[name] = await callers.make(name, shared.admin);
  return who;
}

/** What a caller of this kind should get (the status, and the error code of a refusal). */
function expected(e: Endpoint, c: Case, kind: CallerKind): string {
  const answer = (k: CallerKind) => c.answers[k];
  if (e.access === 'public') return String(answer(kind) ?? c.answers.anyone);
  if (SIGNED_OUT.has(kind)) return '401 unauthorized';
  if (kind === 'mustChange') return String(answer(kind) ?? '403 password_change_required');
  const role = WHO[kind].person === 'admin' ? 'admin' : 'user';
  if (e.access === 'admin' && role !== 'admin') return '403 forbidden';
  const byPerson = kind === 'ownerToken' ? 'owner' : kind === 'adminToken' ? 'admin' : kind;
  return String(answer(kind) ?? answer(byPerson as CallerKind) ?? c.answers.anyone);
}

function actual(res: LightMyRequestResponse, head: boolean): string {
  if (res.statusCode < 400 || head) return String(res.statusCode);
  // A link that is not there (to this caller) answers a page: the web app's not-found page, or
  // (to a password form's POST) a page of the link's own.
  if (isPage(res)) return `${res.statusCode} page`;
  try {
    return `${res.statusCode} ${res.json<{ error: string }>().error}`;
  } catch {
    return `${res.statusCode} (not JSON: ${res.body.slice(0, 40)})`;
  }
}

const isPage = (res: LightMyRequestResponse) =>
  res.body === INDEX_HTML || String(res.headers['content-type']).startsWith('text/html');

/** What a case checks beyond the status: a refusal's body, a success's, and the change made. */
async function further(
  c: Case,
  res: LightMyRequestResponse,
  world: World,
  kind: CallerKind,
  input: Input,
  head: boolean,
): Promise<string | null> {
  if (head) return null;
  // A redirect (an unlocked link sends its browser back to it) is a success.
  const success = res.statusCode < 400;
  if (!success && !isPage(res)) {
    const problem = refusalProblem(res);
    if (problem) return problem;
  }
  if (success && c.check) {
    const problem = c.check(res, world, kind);
    if (problem) return problem;
  }
  const makes = c.makes ? c.makes(kind) : success;
  if (c.done && (await c.done(world, input)) !== makes) {
    return makes
      ? 'answered a success, but the change was not made'
      : 'refused, but the change was made';
  }
  return null;
}

let requests = 0;
const unexpected: string[] = [];
const covered = new Set<string>();

async function call(
  e: Endpoint,
  input: Input,
  headers: Record<string, string>,
  head = false,
): Promise<LightMyRequestResponse> {
  requests += 1;
  const options = requestFor(e, input, headers);
  return ctx.app.inject({
    ...options,
    ...(head ? { method: 'HEAD' } : {}),
    // Every request from an address of its own: the sign-in and registration limits count per
    // address, and this is not a test of them.
    remoteAddress: nextAddress(),
  });
}

const table = (Object.entries(CASES) as [EndpointName, Case[]][]).flatMap(([name, cases]) =>
  cases.map((c) => [`${name}${c.target ? ` (${c.target})` : ''}`, name, c] as const),
);

describe('every route, by every kind of caller', () => {
  it('has a case for every entry of the route table', () => {
    expect(Object.keys(API).filter((name) => !(name in CASES))).toEqual([]);
  });

  it.each(table)('%s', async (label, name, c) => {
    const e: Endpoint = API[name];
    const failures: string[] = [];
    for (const kind of CALLER_KINDS) {
      const people = c.fresh ? await freshPeople(kind) : shared;
      const self: Person = WHO[kind].person ? people[WHO[kind].person!] : people.owner;
      const world: World = { ctx, people, self, resources, smtp };
      const headers = callers.headers(kind, people);
      const want = expected(e, c, kind);
      const methods = e.method === 'GET' ? [false, true] : [false];
      for (const head of methods) {
        const input = await c.input(world);
        const res = await call(e, input, headers, head);
        const got = actual(res, head);
        const wanted = head ? want.split(' ')[0]! : want;
        covered.add(`${name}:${kind}`);
        const problem =
          got !== wanted
            ? `${got}, not ${wanted}: ${res.body.slice(0, 120)}`
            : await further(c, res, world, kind, input, head);
        if (problem) {
          failures.push(`${head ? 'HEAD ' : ''}${label} as ${kind}: ${problem}`);
        }
      }
    }
    unexpected.push(...failures);
    expect(failures).toEqual([]);
  });

  // Last: the counts of what the cases above did.
  it('made every call it should, and none answered anything unexpected', () => {
    const missing = Object.keys(API).flatMap((name) =>
      CALLER_KINDS.filter((kind) => !covered.has(`${name}:${kind}`)).map((k) => `${name}:${k}`),
    );
    expect(missing).toEqual([]);
    console.info(`authorization matrix: ${requests} requests, ${unexpected.length} unexpected`);
    expect(requests).toBeGreaterThanOrEqual(1000);
    expect(unexpected).toEqual([]);
  });
});
