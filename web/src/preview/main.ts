/**
 * The preview page's own script (server/src/modules/links/preview-page.ts renders the page):
 * line numbers and the wrap toggle for text, highlighting and Markdown loaded only for the
 * files that need them, "Show all" past what the server put in the page, and the text of a
 * view-limited upload fetched from its raw link (that fetch is the view).
 */
import { PREVIEW_TEXT_BYTES } from '@upshot/contract/constants';
import './preview.css';

const main = document.querySelector<HTMLElement>('main.page');
const pre = document.querySelector<HTMLPreElement>('#text');
if (main && pre) void setUpText(main, pre);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The text's lines as HTML: highlighted when it has a language that loads, else escaped. */
async function linesOf(text: string, language: string | undefined): Promise<string[]> {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (language) {
    const { highlightLines } = await import('./highlight.ts');
    const lines = await highlightLines(body, language);
    if (lines) return lines;
  }
  return body.split('\n').map(escapeHtml);
}

/** Shows the text with a number before each line (CSS counters: copying leaves them out). */
async function showText(pre: HTMLPreElement, text: string) {
  const lines = await linesOf(text, pre.dataset.language);
  const code = pre.querySelector('code') ?? pre.appendChild(document.createElement('code'));
  // The line's text in a cell of its own: white space straight inside a table row is dropped.
  code.innerHTML = lines.map((line) => `<span class="line"><span>${line}</span></span>`).join('');
  pre.classList.add('numbered');
}

async function fetchText(url: string, range: boolean): Promise<string> {
  const res = await fetch(url, {
    credentials: 'same-origin',
    headers: range ? { range: `bytes=0-${PREVIEW_TEXT_BYTES - 1}` } : {},
  });
  if (!res.ok) throw new Error(`${res.status}`);
  const bytes = await res.arrayBuffer();
  // stream: a character the range cut in two is left out rather than shown broken.
  return new TextDecoder('utf-8').decode(bytes, { stream: res.status === 206 });
}

function toggle(button: HTMLButtonElement, onChange: (pressed: boolean) => void) {
  button.hidden = false;
  button.addEventListener('click', () => {
    const pressed = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(pressed));
    onChange(pressed);
  });
}

async function setUpText(main: HTMLElement, pre: HTMLPreElement) {
  const raw = main.dataset.raw ?? '';
  const markdown = main.dataset.kind === 'markdown';
  const status = document.querySelector<HTMLElement>('#text-status');
  let text = pre.textContent ?? '';
  if (pre.dataset.fetch) {
    try {
      text = await fetchText(raw, true);
      status?.remove();
    } catch {
      if (status) status.textContent = 'The text could not be loaded. Try the Download button.';
      return;
    }
  }

  const wrap = document.querySelector<HTMLButtonElement>('#wrap-toggle');
  if (wrap) toggle(wrap, (on) => pre.classList.toggle('wrap', on));

  const rendered = document.querySelector<HTMLElement>('#rendered');
  const source = document.querySelector<HTMLButtonElement>('#source-toggle');
  let shown = text;
  const render = async () => {
    if (markdown && rendered) {
      const { renderMarkdown } = await import('./markdown.ts');
      rendered.replaceChildren(renderMarkdown(shown));
      const showSource = source?.getAttribute('aria-pressed') === 'true';
      rendered.hidden = showSource;
      pre.hidden = !showSource;
      if (wrap) wrap.hidden = !showSource;
    }
    if (!markdown || !pre.hidden) await showText(pre, shown);
  };
  if (source) {
    toggle(source, async () => {
      await render();
    });
  }

  const all = document.querySelector<HTMLAnchorElement>('#show-all');
  all?.addEventListener('click', async (event) => {
    event.preventDefault();
    all.textContent = 'Loading…';
    try {
      shown = await fetchText(raw, false);
    } catch {
      all.textContent = 'Could not load the rest';
      return;
    }
    all.remove();
    document.querySelector('#truncated-note')?.remove();
    await render();
  });
  await render();
}
