// Settings → Preferences, links and embeds: Link style, the embed's title template (and how it
// reads), site name and colour, saved with the other preferences; a refusal under its field.
import type { Preferences } from '@upshot/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makePreferences } from '../test/fixtures.ts';
import { refuse, type Answer, type Answers } from '../test/mock-api.ts';
import { settingsSection as section } from '../test/queries.ts';
import { alice, renderSettings } from '../test/settings.ts';

/** The preferences as saved: a save answers with what it was sent over what was saved. */
function savedPreferences(initial: Partial<Preferences> = {}) {
  let saved = makePreferences(initial);
  return {
    getPreferences: () => ({ preferences: saved }),
    updatePreferences: ({ body }) => {
      saved = { ...saved, ...body };
      return { preferences: saved };
    },
  } satisfies Answers;
}

const today = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
}).format(new Date());

async function group() {
  const card = await section('Preferences');
  const fields = await within(card).findByRole('group', { name: 'Links and embeds' });
  expect(fields).toHaveAccessibleDescription(
    'Which link you hand out, and how it shows in chat apps',
  );
  return {
    card,
    fields,
    style: within(fields).getByRole('radiogroup', { name: 'Link style' }),
    title: within(fields).getByRole('textbox', { name: 'Embed title' }),
    siteName: within(fields).getByRole('textbox', { name: 'Site name' }),
    colour: within(fields).getByRole('textbox', { name: 'Embed colour' }),
    picker: within(fields).getByLabelText('Pick the embed colour'),
    save: within(card).getByRole('button', { name: 'Save Preferences' }),
  };
}

describe('Settings page: links and embeds', () => {
  it('shows what is saved, the file link by default, and what the title reads as', async () => {
    renderSettings(savedPreferences());
    const { style, title, siteName, colour, picker } = await group();
    expect(within(style).getByRole('radio', { name: 'File' })).toBeChecked();
    expect(within(style).getByRole('radio', { name: 'Preview page' })).not.toBeChecked();
    expect(title).toHaveValue('{filename}');
    expect(title).toHaveAccessibleDescription(
      'May name {filename}, {size}, {date}, {username}. A 3 MB holiday.jpg uploaded today reads as: holiday.jpg',
    );
    expect(siteName).toHaveValue('Upshot');
    expect(colour).toHaveValue('#0a0a0a');
    expect(picker).toHaveValue('#0a0a0a');
  });

  it('saves Preview page and the embed settings with the other preferences, only what changed', async () => {
    const { user, bodies } = renderSettings(savedPreferences());
    const { style, title, siteName, colour, picker, save } = await group();
    expect(save).toBeDisabled();

    await user.click(within(style).getByRole('radio', { name: 'Preview page' }));
    await user.clear(title);
    // userEvent reads { as the start of a key name: typed as {{.
    await user.type(title, '{{filename} ({{size}) by {{username}, {{date}');
    expect(title).toHaveAccessibleDescription(
      `May name {filename}, {size}, {date}, {username}. A 3 MB holiday.jpg uploaded today reads as: holiday.jpg (3 MB) by ${alice.username}, ${today}`,
    );
    await user.clear(siteName);
    await user.type(siteName, 'Pia’s files');
    // The picker and the text are one value.
    fireEvent.input(picker, { target: { value: '#12ab9f' } });
    expect(colour).toHaveValue('#12ab9f');
    await user.clear(colour);
    await user.type(colour, '#FF8800');
    expect(picker).toHaveValue('#ff8800');
    await user.click(save);

    expect(await screen.findByText('Preferences updated')).toBeInTheDocument();
    expect(await bodies('updatePreferences')).toEqual([
      {
        linkStyle: 'preview',
        embedTitle: '{filename} ({size}) by {username}, {date}',
        embedSiteName: 'Pia’s files',
        embedColor: '#FF8800',
      },
    ]);
    expect(within(style).getByRole('radio', { name: 'Preview page' })).toBeChecked();
    expect(save).toBeDisabled();

    await user.click(within(style).getByRole('radio', { name: 'File' }));
    await user.click(save);
    await waitFor(() => expect(screen.getAllByText('Preferences updated')).toHaveLength(2));
    expect((await bodies('updatePreferences'))[1]).toEqual({ linkStyle: 'raw' });
  });

  it('shows a refusal under the field it names, until that field is edited', async () => {
    let answer: Answer<'updatePreferences'> = refuse(
      400,
      'embedColor: must be a colour as #rrggbb',
    );
    const { user, bodies } = renderSettings({
      ...savedPreferences(),
      updatePreferences: () => answer,
    });
    const { title, colour, save } = await group();
    await user.clear(colour);
    await user.type(colour, 'teal');
    await user.click(save);

    expect(await screen.findByText('Failed to update preferences')).toBeInTheDocument();
    expect(colour).toHaveAttribute('aria-invalid', 'true');
    expect(colour).toHaveAccessibleDescription(
      'The edge of the embed in chat apps, as #rrggbb Must be a colour as #rrggbb',
    );
    expect(title).not.toHaveAttribute('aria-invalid');
    // What was typed stays, to be put right.
    expect(colour).toHaveValue('teal');
    expect(save).toBeEnabled();

    await user.type(colour, '{backspace}');
    expect(colour).not.toHaveAttribute('aria-invalid');

    answer = refuse(400, 'embedTitle: may name only {filename}, {size}, {date} and {username}');
    await user.clear(title);
    await user.type(title, '{{name}');
    await user.click(save);
    await waitFor(() => expect(title).toHaveAttribute('aria-invalid', 'true'));
    expect(title).toHaveAccessibleDescription(
      'May name {filename}, {size}, {date}, {username}. A 3 MB holiday.jpg uploaded today reads as: {name} May name only {filename}, {size}, {date} and {username}',
    );
    expect(await bodies('updatePreferences')).toEqual([
      { embedColor: 'teal' },
      { embedTitle: '{name}', embedColor: 'tea' },
    ]);
  });

  it("puts a refusal that names no field of the form in the toast's description", async () => {
    const { user } = renderSettings({
      ...savedPreferences(),
      updatePreferences: refuse(400, 'Invalid request'),
    });
    const { siteName, save } = await group();
    await user.type(siteName, '!');
    await user.click(save);
    expect(await screen.findByText('Failed to update preferences')).toBeInTheDocument();
    expect(screen.getByText('Invalid request')).toBeInTheDocument();
    expect(siteName).not.toHaveAttribute('aria-invalid');
  });
});
