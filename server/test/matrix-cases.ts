/**
 * The authorization matrix's table: for every route-table entry, the request made (on the
 * owner's resources, or on the caller's own account) and the answer each kind of caller gets.
 * Answers are a status, with the error code of a refusal ('404 not_found'). Unless a case says
 * otherwise (plugins/authorization-matrix.test.ts): on a route for users or admins, a caller
 * signed out (nobody, tokens never issued, an expired session, a deactivated user) gets
 * '401 unauthorized'; a user whose password must change gets '403 password_change_required';
 * a user on an admin route gets '403 forbidden'; `owner` and `admin` speak for their API tokens
 * too; `anyone` is every caller a case does not name.
 */
import type { EndpointName } from '@upshot/contract';
import type { LightMyRequestResponse } from 'fastify';
import type { CallerKind } from './callers.ts';
import {
  completed,
  inviteCode,
  isTagged,
  newSession,
  newTag,
  newUpload,
  newUploadId,
  ownerRow,
  ownersSession,
  ownersTag,
  ownersUpload,
  passwordIs,
  pendingRequest,
  requestStatus,
  taggedUpload,
  unique,
  type World,
} from './matrix-fixtures.ts';
import type { Input } from './route-requests.ts';

export type Case = {
  /** Which resource it is called on, when an entry has more than one case. */
  target?: string;
  /** It changes an account (the owner's or the caller's): fresh ones for each call. */
  fresh?: true;
  input: (w: World) => Input | Promise<Input>;
  answers: Partial<Record<CallerKind | 'anyone', string>>;
  /**
   * Whether the call's change was made, read afterwards: it must be made exactly when the
   * answer is a success (a refusal that changed something anyway is a hole).
   */
  done?: (w: World, input: Input) => Promise<boolean>;
  /** Who makes the change, when that is not whoever gets a success. */
  makes?: (kind: CallerKind) => boolean;
  /** What else a success must show; a problem in words, or null. */
  check?: (res: LightMyRequestResponse, w: World, kind: CallerKind) => string | null;
};

const id = (input: Input) => input.params!.id!;
const tagId = (input: Input) => (input.params?.tagId ?? (input.body as { tagId: string }).tagId)!;
const uploadId = (input: Input) => {
  const body = input.body as { uploadId?: string; uploadIds?: string[] } | undefined;
  return (input.params?.uploadId ?? body?.uploadId ?? body?.uploadIds?.[0])!;
};
const body = <T>(input: Input) => input.body as T;

/** Every caller gets the same answer. */
const all = (answer: string) => ({ anyone: answer });
/** Only the owner and administrators may read the owner's private upload (and its thumbnail). */
const ownerOrAdmin = (answer: string, refusal = '404 not_found') => ({
  anyone: refusal,
  owner: answer,
  ownerToken: answer,
  admin: answer,
  adminToken: answer,
});
/** A user route on the owner's resource: the owner and an admin get `answer`, anyone else 404. */
const managedBy = (answer: string) => ({ owner: answer, other: '404 not_found', admin: answer });
/** A user route on something only its owner sees (tags, chunked sessions): admins too get 404. */
const ownOnly = (answer: string) => ({
  owner: answer,
  other: '404 not_found',
  admin: '404 not_found',
});
/** A user route on the owner's account: themself and admins; other users are forbidden. */
const accountOf = (answer: string) => ({ owner: answer, other: '403 forbidden', admin: answer });
/** The owner and administrators may change the owner's uploads. */
const mayManage = (kind: CallerKind) =>
  ['owner', 'ownerToken', 'admin', 'adminToken'].includes(kind);
/** Each signed-in caller on their own things. */
const signedIn = (answer: string) => ({ anyone: answer });

const apiTokenOf = async (w: World, userId: string) =>
  w.ctx.modules.users.service.revealApiToken(
    await w.ctx.handle.db
      .selectFrom('users')
      .select('api_token_encrypted')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow(),
  );

const ownerId = (w: World) => ({ params: { id: w.people.owner.user.id } });
const privateSlug = (w: World) => ({ params: { slug: w.resources.privateUpload.shortCode } });

/** A case for the owner's account, and one for the caller's own. */
const onAccounts = (
  input: (w: World, id: string) => Input,
  owner: Case['answers'],
  self: Case['answers'],
  more: Pick<Case, 'fresh' | 'done'> = {},
): Case[] => [
  {
    target: "the owner's account",
    input: (w) => input(w, w.people.owner.user.id),
    answers: owner,
    ...more,
  },
  { target: 'their own account', input: (w) => input(w, w.self.user.id), answers: self, ...more },
];

export const CASES: Record<EndpointName, Case[]> = {
  config: [{ input: () => ({}), answers: all('200') }],
  // A link of another server: refused as such, whoever asks (the credentials are not read).
  oembed: [
    {
      input: () => ({ query: { url: 'https://elsewhere.example/abc' } }),
      answers: all('400 validation_error'),
    },
  ],
  openapi: [{ input: () => ({}), answers: all('200') }],
  health: [{ input: () => ({}), answers: all('200') }],
  healthReady: [{ input: () => ({}), answers: all('200') }],
  // Only METRICS_TOKEN opens it: no session or API token does.
  metrics: [{ input: () => ({}), answers: all('401 unauthorized') }],

  login: [
    {
      input: (w) => ({
        body: { email: w.people.other.user.email, password: w.people.other.password },
      }),
      answers: all('200'),
    },
  ],
  logout: [{ fresh: true, input: () => ({}), answers: { anyone: '204', mustChange: '204' } }],
  me: [{ input: () => ({}), answers: { anyone: '200', mustChange: '200' } }],
  register: [
    {
      input: async (w) => ({
        body: { inviteCode: await inviteCode(w), password: 'a good password' },
      }),
      answers: all('200'),
    },
  ],
  inviteInfo: [
    { input: async (w) => ({ params: { code: await inviteCode(w) } }), answers: all('200') },
  ],

  requestAccess: [
    {
      input: () => ({
        body: { email: `${unique('asker')}@example.com`, name: 'Asker', reason: 'Files' },
      }),
      answers: all('201'),
    },
  ],
  listAccessRequests: [
    { input: () => ({ query: { status: 'pending' } }), answers: { admin: '200' } },
  ],
  decideAccessRequest: [
    {
      input: async (w) => ({
        params: { id: await pendingRequest(w) },
        body: { status: 'rejected' },
      }),
      answers: { admin: '200' },
      done: async (w, input) => (await requestStatus(w, id(input))) === 'rejected',
    },
  ],
  deleteAccessRequest: [
    {
      input: async (w) => ({ params: { id: await pendingRequest(w) } }),
      answers: { admin: '204' },
      done: async (w, input) => (await requestStatus(w, id(input))) === null,
    },
  ],
  sendInvite: [
    {
      input: () => ({
        body: { to: 'friend@example.com', username: 'friend', tempPassword: 'temporary-pass' },
      }),
      answers: { admin: '200' },
    },
  ],
  auditLog: [{ input: () => ({ query: { page: '1' } }), answers: { admin: '200' } }],

  listUsers: [{ input: () => ({ query: { search: 'user' } }), answers: { admin: '200' } }],
  createUser: [
    {
      input: () => {
        const name = unique('created');
        return {
          body: { email: `${name}@example.com`, username: name, role: 'user', sendInvite: false },
        };
      },
      answers: { admin: '201' },
    },
  ],
  updateUser: [
    {
      fresh: true,
      input: (w) => ({ ...ownerId(w), body: { diskQuota: 1_000_000 } }),
      answers: { admin: '200' },
      done: async (w) => Number((await ownerRow(w))?.disk_quota) === 1_000_000,
    },
  ],
  deleteUser: [
    {
      fresh: true,
      input: ownerId,
      answers: { admin: '204' },
      done: async (w) => (await ownerRow(w)) === null,
    },
  ],
  resetPassword: [
    {
      fresh: true,
      input: ownerId,
      answers: { admin: '200' },
      done: async (w) => (await ownerRow(w))?.must_change_password === 1,
    },
  ],
  getUser: onAccounts((_, id) => ({ params: { id } }), accountOf('200'), signedIn('200')),
  changePassword: onAccounts(
    (w, id) => ({
      params: { id },
      body: { currentPassword: w.self.password, newPassword: 'a brand new password' },
    }),
    // Nobody changes another's password, not even an administrator; a token cannot.
    {
      owner: '204',
      ownerToken: '403 forbidden',
      other: '403 forbidden',
      admin: '403 forbidden',
      mustChange: '403 forbidden',
    },
    { anyone: '204', ownerToken: '403 forbidden', adminToken: '403 forbidden', mustChange: '204' },
    { fresh: true, done: (w, input) => passwordIs(w, id(input), 'a brand new password') },
  ),
  regenerateApiToken: onAccounts(
    (_, id) => ({ params: { id } }),
    accountOf('200'),
    signedIn('200'),
    {
      fresh: true,
      done: async (w, input) => {
        const person = id(input) === w.self.user.id ? w.self : w.people.owner;
        return (await apiTokenOf(w, person.user.id)) !== person.token;
      },
    },
  ),

  sharexConfig: [{ input: () => ({}), answers: signedIn('200') }],
  userSharexConfig: onAccounts((_, id) => ({ params: { id } }), accountOf('200'), signedIn('200')),
  userBashScript: onAccounts((_, id) => ({ params: { id } }), accountOf('200'), signedIn('200')),
  userPowershellScript: onAccounts(
    (_, id) => ({ params: { id } }),
    accountOf('200'),
    signedIn('200'),
  ),

  uploadFile: [{ input: () => ({ form: { isPublic: 'false' } }), answers: signedIn('201') }],
  listUploads: [
    {
      input: () => ({ query: { search: 'dot-false' } }),
      answers: signedIn('200'),
      // Each lists their own: the owner's private upload is in no one else's list.
      check: (res, w, kind) => {
        const ids = res.json<{ uploads: { id: string }[] }>().uploads.map((u) => u.id);
        const listed = ids.includes(w.resources.privateUpload.id);
        return listed === (kind === 'owner' || kind === 'ownerToken')
          ? null
          : `the owner's upload is ${listed ? '' : 'not '}listed`;
      },
    },
  ],
  getUpload: [
    { input: (w) => ({ params: { id: w.resources.privateUpload.id } }), answers: managedBy('200') },
  ],
  uploadAccessUrl: [
    { input: (w) => ({ params: { id: w.resources.privateUpload.id } }), answers: managedBy('200') },
  ],
  updateUpload: [
    {
      input: async (w) => ({
        params: { id: await newUploadId(w) },
        body: { vanityUrl: unique('v') },
      }),
      answers: managedBy('200'),
      done: async (w, input) =>
        (await ownersUpload(w, id(input)))?.vanityUrl ===
        body<{ vanityUrl: string }>(input).vanityUrl,
    },
  ],
  deleteUpload: [
    {
      input: async (w) => ({ params: { id: await newUploadId(w) } }),
      answers: managedBy('204'),
      done: async (w, input) => (await ownersUpload(w, id(input))) === null,
    },
  ],
  batchDeleteUploads: [
    {
      input: async (w) => ({ body: { uploadIds: [await newUploadId(w)] } }),
      done: async (w, input) => (await ownersUpload(w, uploadId(input))) === null,
      makes: (kind) => mayManage(kind),
      // Answered 200 to anyone signed in: another user's ids are skipped, not refused.
      answers: signedIn('200'),
      check: (res, _, kind) => {
        const { deletedCount } = res.json<{ deletedCount: number }>();
        return deletedCount === (mayManage(kind) ? 1 : 0) ? null : `deletedCount ${deletedCount}`;
      },
    },
  ],

  listTags: [{ input: () => ({}), answers: signedIn('200') }],
  createTag: [{ input: () => ({ body: { name: unique('t') } }), answers: signedIn('201') }],
  renameTag: [
    {
      input: async (w) => ({ params: { tagId: await newTag(w) }, body: { name: unique('r') } }),
      answers: ownOnly('200'),
      done: async (w, input) =>
        (await ownersTag(w, tagId(input)))?.name === body<{ name: string }>(input).name,
    },
  ],
  deleteTag: [
    {
      input: async (w) => ({ params: { tagId: await newTag(w) } }),
      answers: ownOnly('204'),
      done: async (w, input) => (await ownersTag(w, tagId(input))) === null,
    },
  ],
  tagUploads: [
    { input: async (w) => ({ params: { tagId: await newTag(w) } }), answers: ownOnly('200') },
  ],
  addTagToUpload: [
    {
      input: async (w) => ({ params: { tagId: await newTag(w), uploadId: await newUploadId(w) } }),
      answers: ownOnly('200'),
      done: (w, input) => isTagged(w, uploadId(input), tagId(input)),
    },
  ],
  removeTagFromUpload: [
    {
      input: async (w) => ({ params: await taggedUpload(w) }),
      answers: ownOnly('200'),
      done: async (w, input) => !(await isTagged(w, uploadId(input), tagId(input))),
    },
  ],
  batchAddTag: [
    {
      input: async (w) => ({ body: { tagId: await newTag(w), uploadIds: [await newUploadId(w)] } }),
      answers: ownOnly('200'),
      done: (w, input) => isTagged(w, uploadId(input), tagId(input)),
    },
  ],
  batchRemoveTag: [
    {
      input: async (w) => {
        const { tagId, uploadId } = await taggedUpload(w);
        return { body: { tagId, uploadIds: [uploadId] } };
      },
      answers: ownOnly('200'),
      done: async (w, input) => !(await isTagged(w, uploadId(input), tagId(input))),
    },
  ],

  getPreferences: [{ input: () => ({}), answers: signedIn('200') }],
  updatePreferences: [
    { input: () => ({ body: { uploadsPerPage: 30 } }), answers: signedIn('200') },
  ],
  stats: [{ input: () => ({}), answers: signedIn('200') }],
  adminStats: [{ input: () => ({}), answers: { admin: '200' } }],

  chunkedInit: [
    {
      input: () => ({
        body: { filename: 'a.bin', mimeType: 'text/plain', totalSize: 5, totalChunks: 1 },
      }),
      answers: signedIn('201'),
    },
  ],
  chunkedChunk: [
    {
      input: async (w) => {
        const uploadId = await newSession(w, false);
        return { form: { uploadId, chunkIndex: '0' } };
      },
      answers: ownOnly('204'),
      done: async (w, input) =>
        Boolean((await ownersSession(w, input.form!.uploadId!))?.receivedChunks.includes(0)),
    },
  ],
  chunkedComplete: [
    {
      input: async (w) => ({ body: { uploadId: await newSession(w, true) } }),
      answers: ownOnly('201'),
      done: (w, input) => completed(w, uploadId(input)),
    },
  ],
  chunkedStatus: [
    {
      input: async (w) => ({ params: { uploadId: await newSession(w, false) } }),
      answers: ownOnly('200'),
    },
  ],
  chunkedAbort: [
    {
      input: async (w) => ({ params: { uploadId: await newSession(w, false) } }),
      answers: ownOnly('204'),
      done: async (w, input) => (await ownersSession(w, uploadId(input))) === null,
    },
  ],

  // The signature is the credential: whoever calls, with it or without it.
  deletionPage: [
    {
      input: (w) => ({
        params: { id: w.resources.privateUpload.id },
        query: { signature: w.resources.deletionSignature },
      }),
      answers: all('200'),
    },
  ],
  batchPrivacy: [
    {
      // New uploads here are private: making one public is the change.
      input: async (w) => ({ body: { uploadIds: [await newUploadId(w)], isPublic: true } }),
      done: async (w, input) => (await ownersUpload(w, uploadId(input)))?.isPublic === true,
      makes: (kind) => mayManage(kind),
      // Answered 200 to anyone signed in: another user's ids are skipped, not refused.
      answers: signedIn('200'),
      check: (res, _, kind) => {
        const { updatedCount } = res.json<{ updatedCount: number }>();
        return updatedCount === (mayManage(kind) ? 1 : 0) ? null : `updatedCount ${updatedCount}`;
      },
    },
  ],
  deleteByLink: [
    {
      input: async (w) => {
        const { upload, deletionUrl } = await newUpload(w);
        const signature = new URL(deletionUrl).searchParams.get('signature')!;
        return { params: { id: upload.id }, body: { signature } };
      },
      answers: all('200'),
      done: async (w, input) => (await ownersUpload(w, id(input))) === null,
    },
  ],

  thumbnail: [
    {
      target: 'private',
      input: (w) => ({ params: { code: w.resources.privateUpload.shortCode } }),
      answers: ownerOrAdmin('200'),
    },
    {
      target: 'public',
      input: (w) => ({ params: { code: w.resources.publicUpload.shortCode } }),
      answers: all('200'),
    },
  ],
  file: [
    // Refused as a link that does not exist: the web app's not-found page.
    { target: 'private', input: privateSlug, answers: ownerOrAdmin('200', '404 page') },
    {
      target: 'public',
      input: (w) => ({ params: { slug: w.resources.publicUpload.shortCode } }),
      answers: all('200'),
    },
  ],
  // The private upload has no password: its managers are sent back to it, anyone else is told
  // it does not exist, whatever they send.
  unlockFile: [
    {
      input: (w) => ({ ...privateSlug(w), body: { password: 'anything' } }),
      answers: ownerOrAdmin('303', '404 page'),
    },
  ],
  // The preview page answers as its raw link does.
  preview: [
    { target: 'private', input: privateSlug, answers: ownerOrAdmin('200', '404 page') },
    {
      target: 'public',
      input: (w) => ({ params: { slug: w.resources.publicUpload.shortCode } }),
      answers: all('200'),
    },
  ],
  unlockPreview: [
    {
      input: (w) => ({ ...privateSlug(w), body: { password: 'anything' } }),
      answers: ownerOrAdmin('303', '404 page'),
    },
  ],
};
