// Hands a downloaded Blob to the browser as a file, the way a link with `download` would.

/** How long the object URL stays valid: the download must have started by then. */
const REVOKE_AFTER_MS = 30_000;

export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: some browsers read the URL after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
