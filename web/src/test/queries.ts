// Queries several screens' tests share: the Admin users table, the Settings sections, and the
// upload cards' tags.
import { screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

type User = ReturnType<typeof userEvent.setup>;

export const usersTable = () => screen.findByRole('table', { name: 'Users' });

export const userRow = async (username: string) =>
  within(await usersTable()).findByRole('row', { name: username });

/** Opens a user row's menu and picks an item. */
export async function rowAction(user: User, username: string, item: string) {
  await user.click(
    within(await userRow(username)).getByRole('button', { name: `Actions for ${username}` }),
  );
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

/** A section of the Settings screen, by its title. */
export const settingsSection = (name: string) => screen.findByRole('region', { name });

/** An upload's card and its tag field. */
export async function openCard(name: string) {
  const card = await screen.findByRole('article', { name });
  const input = within(card).getByRole('combobox', { name: `Add tag to ${name}` });
  return { card, input };
}

/** The tag suggestions listed now. */
export const optionNames = () =>
  within(screen.getByRole('listbox', { name: 'Tag suggestions' }))
    .getAllByRole('option')
    .map((option) => option.textContent);

/** The tags a card shows. */
export const badges = (card: HTMLElement) =>
  within(card).queryByRole('list', { name: 'Tags' })
    ? within(within(card).getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent)
    : [];
