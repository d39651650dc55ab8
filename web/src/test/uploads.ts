// The Uploads screen's tests share a signed-in user, the shape of a list's answer and uploads
// named after their file; each test says what the list and the tags answer.
import type { ListUploadsResponse, Tag, Upload } from '@upshot/contract';
import { makeServerConfig, makeUpload } from './fixtures.ts';
import { mockApi, signIn, type Answers } from './mock-api.ts';
import { renderApp } from './render-app.tsx';

/** The server's PUBLIC_URL in these tests: not the address the app runs at (jsdom's). */
export const PUBLIC_URL = 'https://share.example.com';

/** The list's answer: the uploads given, all on one page unless said otherwise. */
export function uploadsPage(
  uploads: Upload[],
  overrides: Partial<ListUploadsResponse> = {},
): ListUploadsResponse {
  return { uploads, total: uploads.length, page: 1, limit: 20, ...overrides };
}

/** An upload whose id is its file name, carrying the tags given (as an upload lists them). */
export const tagged = (name: string, tags: Tag[] = []) =>
  makeUpload({
    id: name,
    originalFilename: name,
    tags: tags.map(({ id, name }) => ({ id, name })),
  });

/** A public image with a custom URL and a thumbnail. */
export const photo = () =>
  makeUpload({
    id: 'p1',
    originalFilename: 'photo.png',
    mimeType: 'image/png',
    size: 1536,
    views: 3,
    shortCode: 'abc234',
    vanityUrl: 'holiday',
    url: `${PUBLIC_URL}/holiday`,
    thumbnailUrl: `${PUBLIC_URL}/thumb/abc234`,
  });

/** A private PDF. */
export const secret = () =>
  makeUpload({
    id: 's1',
    originalFilename: 'secret.pdf',
    mimeType: 'application/pdf',
    isPublic: false,
    views: 1,
    shortCode: 'def567',
    url: `${PUBLIC_URL}/def567`,
  });

/** The signed-in app at `path`: no uploads and no tags unless `answers` say else. */
export function renderUploads(answers: Answers = {}, path = '/uploads') {
  const network = mockApi({
    ...signIn(),
    config: makeServerConfig({ publicUrl: PUBLIC_URL }),
    listTags: { tags: [] },
    listUploads: uploadsPage([]),
    ...answers,
  });
  return { ...renderApp(path), ...network };
}
