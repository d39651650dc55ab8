// Whether a paste or a drop on the Uploads screen is the screen's to take: not while a dialog
// other than the upload dialog is open (New text, Link settings, Manage tags, a confirmation, a
// tag's popover...), whose business it then is. Read from the page itself, so a dialog added
// later is counted without being listed here.

/** Marks the dialog that files join (the upload dialog): it is never in the way. */
export const TAKES_FILES = { 'data-takes-files': '' } as const;

export function otherDialogOpen(): boolean {
  return Array.from(
    document.querySelectorAll('[role="dialog"][data-state="open"], [role="alertdialog"]'),
  ).some((element) => !element.hasAttribute('data-takes-files'));
}
