/**
 * Markdown, a chunk of its own loaded only for Markdown files: marked renders it, DOMPurify
 * keeps only a short list of tags, attributes and URL schemes. Nothing a file holds (raw HTML,
 * event attributes, SVG, javascript: links) reaches the page.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';

const ALLOWED_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'details',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'kbd',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'align', 'start', 'colspan', 'rowspan'];
/** http, https and mailto, or a link relative to the page (no scheme at all). */
const ALLOWED_URI_REGEXP = /^(?:https?:|mailto:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // A link to elsewhere is followed without telling it where it came from or opening a window
  // handle back to the page.
  if (node.tagName === 'A') node.setAttribute('rel', 'noopener noreferrer nofollow ugc');
});

/** The Markdown as sanitized DOM nodes. */
export function renderMarkdown(source: string): DocumentFragment {
  const html = marked.parse(source, { async: false, gfm: true });
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP,
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
}
