/** Signing in and seeding uploads over the HTTP API, for tests that are about something else. */
import type { Page } from 'playwright-core';

/** POST /api/auth/login as it answers, for tests about whether a password signs in. */
export function signInRequest(baseUrl: string, email: string, password: string) {
  return fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

/** A session token for the account; throws when it cannot sign in. */
export async function apiSignIn(baseUrl: string, email: string, password: string) {
  const res = await signInRequest(baseUrl, email, password);
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export async function apiUpload(
  baseUrl: string,
  token: string,
  file: {
    name: string;
    bytes: Buffer;
    type?: string;
    isPublic?: boolean;
    /** The link's other fields, sent before the file: expires, maxViews, password. */
    link?: { expires?: string; maxViews?: number; password?: string };
  },
): Promise<{ id: string; url: string; mimeType: string; thumbnailUrl: string | null }> {
  const form = new FormData();
  if (file.isPublic !== undefined) form.append('isPublic', String(file.isPublic));
  for (const [field, value] of Object.entries(file.link ?? {})) form.append(field, String(value));
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? '' }), file.name);
  const res = await fetch(`${baseUrl}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { upload: Awaited<ReturnType<typeof apiUpload>> }).upload;
}

export async function signInThroughForm(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
}

/** Fails the test on a script error or a Content-Security-Policy refusal in the page. */
export function watchPageErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(text)) {
      errors.push(`csp: ${text}`);
    }
  });
  return () => errors;
}
