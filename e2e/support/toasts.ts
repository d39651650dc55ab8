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
