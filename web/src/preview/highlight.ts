/**
 * Highlighting, a chunk of its own loaded only for text with a language: highlight.js's core,
 * its theme, and the one language the file needs.
 */
import hljs from 'highlight.js/lib/core';
import 'highlight.js/styles/a11y-dark.css';
import { LANGUAGES } from './languages.ts';

/** Past this, text is shown without colours: highlighting it would hold the page up. */
const MAX_HIGHLIGHTED_CHARS = 2 * 1024 * 1024;

/**
 * The text as HTML, one string per line: highlight.js escapes the text and wraps its tokens in
 * spans, and a span that runs over a line break is closed at its end and opened again on the
 * next line, so each line stands alone.
 */
export async function highlightLines(text: string, language: string): Promise<string[] | null> {
  const load = Object.hasOwn(LANGUAGES, language) ? LANGUAGES[language] : undefined;
  if (!load || text.length > MAX_HIGHLIGHTED_CHARS) return null;
  if (!hljs.getLanguage(language)) hljs.registerLanguage(language, (await load()).default);
  const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  for (const [token, start, end, br] of html.matchAll(/(<span[^>]*>)|(<\/span>)|(\n)|[^<\n]+/g)) {
    if (start) {
      open.push(start);
      line += start;
    } else if (end) {
      open.pop();
      line += end;
    } else if (br) {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else {
      line += token;
    }
  }
  lines.push(line);
  return lines;
}
