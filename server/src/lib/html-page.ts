/**
 * The small pages the server answers itself, outside the web app (a deletion link's, a
 * protected or expired link's): one centred card in the app's dark colours, no script. Their
 * texts live with the module that answers them; every value put in them is escaped there.
 */
import { escapeHtml } from './format.ts';

/** A whole page around `body` (HTML the caller escaped), titled `title`. */
export function htmlPage(title: string, body: string): string {
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
  .error { color: #fca5a5; }
  label { display: block; font-weight: 600; margin: 0 0 0.375rem; }
  input { width: 100%; box-sizing: border-box; margin: 0 0 1rem; padding: 0.5rem 0.75rem;
    border: 1px solid #3f3f46; border-radius: 0.5rem; background: #09090b; color: #fafafa;
    font: inherit; }
  input[aria-invalid="true"] { border-color: #f87171; }
  input:focus-visible, button:focus-visible { outline: 3px solid #a5b4fc; outline-offset: 2px; }
  button { width: 100%; border: 0; border-radius: 0.5rem; padding: 0.625rem 1rem; font: inherit;
    font-weight: 600; background: #fafafa; color: #09090b; cursor: pointer; }
  button:hover { background: #e4e4e7; }
  button.danger { background: #dc2626; color: #fff; }
  button.danger:hover { background: #b91c1c; }
  .brand { margin: 1.25rem 0 0; font-size: 0.8rem; color: #a1a1aa; text-align: center; }
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
