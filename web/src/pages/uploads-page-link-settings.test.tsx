// The Link settings dialog: privacy, expiry, view limit and password changed after the fact.
import type { UpdateUploadRequest, Upload } from '@upshot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../lib/format.ts';
import { deferred } from '../test/fetch-mock.ts';
import { makeUpload } from '../test/fixtures.ts';
import { refuse, type Answers } from '../test/mock-api.ts';
import { renderUploads, uploadsPage } from '../test/uploads.ts';

const HOUR = 3_600_000;

/** A public file whose link expires, has a view limit and a password. */
const guarded = (overrides: Partial<Upload> = {}) =>
  makeUpload({
    id: 'g1',
    originalFilename: 'guarded.zip',
    expiresAt: new Date(Date.now() + 48 * HOUR).toISOString(),
    maxViews: 5,
    viewsLeft: 2,
    hasPassword: true,
    ...overrides,
  });

function answers(upload: Upload, extra: Answers = {}): Answers {
  return {
    listUploads: uploadsPage([upload]),
    updateUpload: ({ body }) => ({ ...upload, ...(body as Partial<Upload>) }),
    ...extra,
  };
}

async function openSettings(user: ReturnType<typeof renderUploads>['user'], name: string) {
  const card = await screen.findByRole('article', { name });
  const button = within(card).getByRole('button', { name: `Link settings for ${name}` });
  await user.click(button);
  return { dialog: await screen.findByRole('dialog', { name: 'Link settings' }), button };
}

describe('Link settings dialog', () => {
  it('shows the link as it is, saves nothing untouched, and returns focus on Cancel', async () => {
    const upload = guarded();
    const { user, writes } = renderUploads(answers(upload));
    const { dialog, button } = await openSettings(user, 'guarded.zip');

    expect(within(dialog).getByRole('radio', { name: 'Public' })).toBeChecked();
    const expires = within(dialog).getByRole('combobox', { name: 'Expires' });
    expect(expires).toHaveDisplayValue(`Keep: ${formatDate(upload.expiresAt!)}`);
    const limit = within(dialog).getByRole('textbox', { name: 'View limit' });
    expect(limit).toHaveValue('5');
    expect(limit).toHaveAccessibleDescription(/3 of 5 used so far/);
    expect(within(dialog).getByRole('radio', { name: 'Keep' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
    expect(writes()).toEqual([]);
  });

  it('makes a link private, expiring in 7 days, with a limit and a new password', async () => {
    const upload = makeUpload({ id: 'f1', originalFilename: 'free.txt' });
    const { user, bodies, sent } = renderUploads(answers(upload));
    const { dialog } = await openSettings(user, 'free.txt');
    expect(within(dialog).getByRole('combobox', { name: 'Expires' })).toHaveDisplayValue('Never');
    expect(within(dialog).getByRole('radio', { name: 'None' })).toBeChecked();

    await user.click(within(dialog).getByRole('radio', { name: 'Private' }));
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Expires' }),
      'In 7 days',
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'View limit' }), '10');
    await user.click(within(dialog).getByRole('radio', { name: 'Set' }));
    const password = within(dialog).getByLabelText('New password');
    expect(password).toHaveFocus();
    await user.type(password, 'open sesame');
    const before = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Link settings saved')).toBeInTheDocument();
    expect(new URL(sent('updateUpload')[0]!.url).pathname).toBe('/api/uploads/f1');
    const [body] = (await bodies('updateUpload')) as [UpdateUploadRequest];
    expect(body).toEqual({
      isPublic: false,
      expiresAt: expect.any(String) as string,
      maxViews: 10,
      password: 'open sesame',
    });
    const expiresAt = Date.parse(body.expiresAt!);
    expect(expiresAt - before).toBeGreaterThanOrEqual(7 * 24 * HOUR - 1000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(7 * 24 * HOUR);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('removes the password and clears the expiry and the view limit with null', async () => {
    const { user, bodies } = renderUploads(answers(guarded()));
    const { dialog } = await openSettings(user, 'guarded.zip');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Expires' }), 'Never');
    await user.clear(within(dialog).getByRole('textbox', { name: 'View limit' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Remove' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Link settings saved')).toBeInTheDocument();
    expect(await bodies('updateUpload')).toEqual([
      { expiresAt: null, maxViews: null, password: null },
    ]);
  });

  it('sets an expiry on a date, in the future only', async () => {
    const { user, bodies, writes } = renderUploads(answers(guarded()));
    const { dialog } = await openSettings(user, 'guarded.zip');
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Expires' }),
      'On a date...',
    );
    const date = within(dialog).getByLabelText('Expiry date');
    await user.type(date, '2001-01-01T10:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(date).toHaveAccessibleDescription(/Choose a time in the future/);
    expect(writes()).toEqual([]);

    await user.clear(date);
    await user.type(date, '2099-12-31T23:30');
    expect(date).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Link settings saved')).toBeInTheDocument();
    expect(await bodies('updateUpload')).toEqual([
      { expiresAt: new Date('2099-12-31T23:30').toISOString() },
    ]);
  });

  it("shows the server's refusal under the field it names, and stays open", async () => {
    const { user } = renderUploads(
      answers(guarded(), { updateUpload: refuse(400, 'maxViews: must be at most 1000000') }),
    );
    const { dialog } = await openSettings(user, 'guarded.zip');
    const limit = within(dialog).getByRole('textbox', { name: 'View limit' });
    await user.clear(limit);
    await user.type(limit, '7');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(limit).toHaveAccessibleDescription(/Must be at most 1000000/));
    expect(limit).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Link settings' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows a refusal that names no field on the form, once: no toast beside it', async () => {
    const { user } = renderUploads(
      answers(guarded(), { updateUpload: refuse(404, 'Upload not found') }),
    );
    const { dialog } = await openSettings(user, 'guarded.zip');
    await user.click(within(dialog).getByRole('radio', { name: 'Private' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Upload not found');
    expect(screen.getAllByText('Upload not found')).toHaveLength(1);
  });

  it('cannot be dismissed while saving', async () => {
    const answer = deferred<Upload>();
    const upload = guarded();
    const { user } = renderUploads(answers(upload, { updateUpload: () => answer.promise }));
    const { dialog, button } = await openSettings(user, 'guarded.zip');
    await user.click(within(dialog).getByRole('radio', { name: 'Private' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Link settings' })).toBeInTheDocument();

    answer.resolve({ ...upload, isPublic: false });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(button).toHaveFocus();
  });

  it('asks for the new password before sending anything', async () => {
    const { user, writes } = renderUploads(answers(guarded()));
    const { dialog } = await openSettings(user, 'guarded.zip');
    await user.click(within(dialog).getByRole('radio', { name: 'Change' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('New password')).toHaveAccessibleDescription(
      'Type the new password',
    );
    // One with a space at an end is refused as the server would, before it is sent.
    await user.type(within(dialog).getByLabelText('New password'), ' padded ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText('New password')).toHaveAccessibleDescription(
      'Must not begin or end with a space',
    );
    expect(writes()).toEqual([]);
  });
});
