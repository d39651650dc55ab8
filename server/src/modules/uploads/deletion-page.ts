/**
 * The pages a deletion link shows: a confirmation naming the file (opening the link never
 * deletes), the page after the deletion, and one page for every link that opens nothing (forged,
 * another upload's, or already used), which says no more than that.
 */
import type { UploadRow } from '../../db/schema.ts';
import { escapeHtml, formatBytes, formatUtcDateTime } from '../../lib/format.ts';
import { htmlPage } from '../../lib/html-page.ts';

export function confirmDeletionPage(row: UploadRow, signature: string): string {
  return htmlPage(
    'Delete file',
    `<h1>Delete this file?</h1>
<p><span class="file">${escapeHtml(row.original_filename)}</span><br>${escapeHtml(formatBytes(Number(row.size)))}, uploaded ${escapeHtml(formatUtcDateTime(row.created_at))}</p>
<p>Its link will stop working. This cannot be undone.</p>
<form method="post">
<input type="hidden" name="signature" value="${escapeHtml(signature)}">
<button type="submit" class="danger">Delete</button>
</form>`,
  );
}

export function deletedPage(row: UploadRow): string {
  return htmlPage(
    'File deleted',
    `<h1>File deleted</h1>
<p><span class="file">${escapeHtml(row.original_filename)}</span> has been deleted. Its link no longer works.</p>`,
  );
}

export function invalidDeletionLinkPage(): string {
  return htmlPage(
    'Link not valid',
    `<h1>Nothing to delete</h1>
<p>This deletion link is not valid, or its file has already been deleted.</p>`,
  );
}
