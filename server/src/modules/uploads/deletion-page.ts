/**
 * The pages a deletion link shows: a confirmation naming the file (opening the link never
 * deletes), the page after the deletion, and one page for every link that opens nothing (forged,
 * another upload's, or already used), which says no more than that.
 */
import type { UploadRow } from '../../db/schema.ts';
import { escapeHtml, formatBytes, formatUtcDateTime } from '../../lib/format.ts';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en" style="color-scheme: dark">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Upshot</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem;
    box-sizing: border-box; background: #09090b; color: #fafafa;
    font: 15px/1.5 ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: 100%; max-width: 26rem; border: 1px solid #27272a; border-radius: 0.75rem;
    background: #111113; padding: 1.5rem; box-sizing: border-box; }
  h1 { font-size: 1.25rem; margin: 0 0 0.5rem; }
  p { margin: 0 0 1rem; color: #a1a1aa; }
  .file { color: #fafafa; font-weight: 600; overflow-wrap: anywhere; }
  button { width: 100%; border: 0; border-radius: 0.5rem; padding: 0.625rem 1rem; font: inherit;
    font-weight: 600; background: #dc2626; color: #fff; cursor: pointer; }
  button:hover { background: #b91c1c; }
  .brand { margin: 1.25rem 0 0; font-size: 0.8rem; color: #71717a; text-align: center; }
</style>
</head>
<body>
<main>
${body}
<p class="brand">Upshot</p>
</main>
</body>
</html>
`;
}

export function confirmDeletionPage(row: UploadRow, signature: string): string {
  return page(
    'Delete file',
    `<h1>Delete this file?</h1>
<p><span class="file">${escapeHtml(row.original_filename)}</span><br>${escapeHtml(formatBytes(Number(row.size)))}, uploaded ${escapeHtml(formatUtcDateTime(row.created_at))}</p>
<p>Its link will stop working. This cannot be undone.</p>
<form method="post">
<input type="hidden" name="signature" value="${escapeHtml(signature)}">
<button type="submit">Delete</button>
</form>`,
  );
}

export function deletedPage(row: UploadRow): string {
  return page(
    'File deleted',
    `<h1>File deleted</h1>
<p><span class="file">${escapeHtml(row.original_filename)}</span> has been deleted. Its link no longer works.</p>`,
  );
}

export function invalidDeletionLinkPage(): string {
  return page(
    'Link not valid',
    `<h1>Nothing to delete</h1>
<p>This deletion link is not valid, or its file has already been deleted.</p>`,
  );
}
