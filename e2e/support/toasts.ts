/**
 * Toasts that appear after a given moment. A toast stays four seconds, so the one an earlier
 * step showed may still be on screen with the same words: mark what is there, act, then wait
 * for an unmarked one.
 */
import type { Locator, Page } from 'playwright-core';

const SEEN = 'data-e2e-seen';

/** Marks every toast on screen now as seen. */
export async function markToastsSeen(page: Page): Promise<void> {
  await page
    .locator('[data-sonner-toast]')
    .evaluateAll((toasts, attribute) => toasts.forEach((t) => t.setAttribute(attribute, '')), SEEN);
}

/** A toast with exactly this title, shown since the last markToastsSeen. */
export function newToast(page: Page, title: string): Locator {
  return page
    .locator(`[data-sonner-toast]:not([${SEEN}])`)
    .filter({ has: page.getByText(title, { exact: true }) });
}

/** The first toast shown since the last markToastsSeen, whatever it says (to read its words). */
export function firstNewToast(page: Page): Locator {
  return page.locator(`[data-sonner-toast]:not([${SEEN}])`).first();
}

/** Runs `action` and waits for the toast it should bring. */
export async function expectToast(page: Page, title: string, action: () => Promise<unknown>) {
  await markToastsSeen(page);
  await action();
  await newToast(page, title).waitFor();
}

/**
 * Waits until no toast is on screen. Toasts sit at the top right, over the account menu, and a
 * toast under the mouse pointer stays (it pauses while hovered): the pointer moves off first.
 */
export async function untilToastsGone(page: Page): Promise<void> {
  const height = page.viewportSize()?.height ?? 600;
  await page.mouse.move(0, height - 1);
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
}

/** Opens the account menu (top right), once no toast covers it. */
export async function openAccountMenu(page: Page): Promise<void> {
  await untilToastsGone(page);
  await page.getByRole('button', { name: 'Account menu' }).click();
}
