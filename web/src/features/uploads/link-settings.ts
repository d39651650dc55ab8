// The Link settings form as data: what it starts from, what a save sends (only what changed),
// and where a refusal belongs.
import type { UpdateUploadRequest, Upload } from '@upshot/contract';
import { durationMs, NEVER_EXPIRES } from '@upshot/contract/constants';
import { parseViewLimit, passwordProblem, VIEW_LIMIT_ERROR } from '../../lib/link-options.ts';

/** Keep the expiry as it is, or pick a moment on the calendar. */
export const KEEP = 'keep';
export const ON_DATE = 'date';

export type PasswordChoice = 'keep' | 'set' | 'remove';

export type LinkForm = {
  isPublic: boolean;
  /** KEEP, 'never', a duration from now, or ON_DATE. */
  expiry: string;
  /** A datetime-local value (the viewer's time), for ON_DATE. */
  expiryDate: string;
  /** As typed: empty for no limit. */
  maxViews: string;
  /** 'keep' also means "still none" for a link without one. */
  password: PasswordChoice;
  newPassword: string;
};

export type LinkField = 'isPublic' | 'expiresAt' | 'maxViews' | 'password';
export type LinkErrors = Partial<Record<LinkField | 'form', string>>;

export function initialLinkForm(upload: Upload): LinkForm {
  return {
    isPublic: upload.isPublic,
    expiry: upload.expiresAt === null ? NEVER_EXPIRES : KEEP,
    expiryDate: '',
    maxViews: upload.maxViews === null ? '' : String(upload.maxViews),
    password: 'keep',
    newPassword: '',
  };
}

/** A datetime-local value for `date` in the viewer's time zone: `2026-12-04T17:01`. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function expiresAtOf(form: LinkForm, now: number): { value?: string | null; error?: string } {
  if (form.expiry === KEEP) return {};
  if (form.expiry === NEVER_EXPIRES) return { value: null };
  if (form.expiry === ON_DATE) {
    if (form.expiryDate === '') return { error: 'Choose a date and time' };
    // A datetime-local value without a zone reads as the viewer's local time.
    const at = new Date(form.expiryDate).getTime();
    if (Number.isNaN(at)) return { error: 'Choose a date and time' };
    if (at <= now) return { error: 'Choose a time in the future' };
    return { value: new Date(at).toISOString() };
  }
  const ms = durationMs(form.expiry);
  return ms === null ? {} : { value: new Date(now + ms).toISOString() };
}

/** What a save sends, or what is wrong with the form. */
export function linkChanges(
  upload: Upload,
  form: LinkForm,
  now: number,
): { changes: UpdateUploadRequest } | { errors: LinkErrors } {
  const changes: UpdateUploadRequest = {};
  const errors: LinkErrors = {};
  if (form.isPublic !== upload.isPublic) changes.isPublic = form.isPublic;

  const expires = expiresAtOf(form, now);
  if (expires.error) errors.expiresAt = expires.error;
  else if (expires.value !== undefined && !(expires.value === null && upload.expiresAt === null)) {
    changes.expiresAt = expires.value;
  }

  const maxViews = parseViewLimit(form.maxViews);
  if (maxViews === undefined) errors.maxViews = VIEW_LIMIT_ERROR;
  else if (maxViews !== upload.maxViews) changes.maxViews = maxViews;

  if (form.password === 'remove' && upload.hasPassword) changes.password = null;
  if (form.password === 'set') {
    const problem =
      form.newPassword === '' ? 'Type the new password' : passwordProblem(form.newPassword);
    if (problem) errors.password = problem;
    else changes.password = form.newPassword;
  }
  return Object.keys(errors).length > 0 ? { errors } : { changes };
}

const FIELDS: readonly LinkField[] = ['isPublic', 'expiresAt', 'maxViews', 'password'];

/**
 * Where the server's refusal belongs: a 400 names its field first ("maxViews: must be at least
 * 1"), shown under that field without the name; anything else is about the whole form.
 */
export function placeRefusal(message: string): LinkErrors {
  const match = /^(\w+)(:\s*|\s)(.*)$/s.exec(message);
  const field = FIELDS.find((name) => name === match?.[1]);
  if (!field || !match) return { form: message };
  if (!match[2]!.startsWith(':')) return { [field]: message }; // "password is required"
  const rest = match[3]!;
  return { [field]: rest.charAt(0).toUpperCase() + rest.slice(1) };
}
