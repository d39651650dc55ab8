/**
 * How a preview page shows an upload, from its stored type and its name's extension: an image,
 * a player, text (highlighted as a language, or plain), rendered Markdown, a PDF viewer, or
 * nothing but a type icon.
 */
import { isMimeType } from '@upshot/contract';

export type PreviewKind = 'image' | 'video' | 'audio' | 'text' | 'markdown' | 'pdf' | 'other';

/**
 * Extensions shown as source, by highlight.js language (web/src/preview/languages.ts loads
 * each). Markdown and HTML files are source here too: HTML is never rendered, Markdown's
 * "Source" view uses it.
 */
const LANGUAGES: Record<string, string> = {
  py: 'python',
  pyw: 'python',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsonc: 'json',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  md: 'markdown',
  markdown: 'markdown',
  css: 'css',
  scss: 'scss',
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  cfg: 'ini',
  sql: 'sql',
  php: 'php',
  rb: 'ruby',
  lua: 'lua',
  swift: 'swift',
  diff: 'diff',
  patch: 'diff',
  ps1: 'powershell',
  dockerfile: 'dockerfile',
};

/** Extensions of plain text, shown with line numbers and no highlighting. */
const PLAIN = new Set(['txt', 'log', 'csv', 'tsv', 'text', 'out', 'env', 'conf', 'nfo']);

/** Types that are text whatever their name says. */
const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/x-httpd-php',
]);

const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd']);

/** The lower-cased extension of a name (`Dockerfile` counts as its own). */
function extensionOf(filename: string): string {
  const base = filename.toLowerCase();
  if (base === 'dockerfile') return 'dockerfile';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1) : '';
}

export type Preview = {
  kind: PreviewKind;
  /** For text: the highlight.js language, or null for plain text. */
  language: string | null;
};

export function previewOf(mimeType: string, filename: string): Preview {
  const mime = mimeType.toLowerCase();
  const ext = extensionOf(filename);
  const type = isMimeType(mime) ? mime : 'application/octet-stream';
  if (type.startsWith('image/')) return { kind: 'image', language: null };
  if (type.startsWith('video/')) return { kind: 'video', language: null };
  if (type.startsWith('audio/')) return { kind: 'audio', language: null };
  if (type === 'application/pdf') return { kind: 'pdf', language: null };
  if (MARKDOWN_EXTENSIONS.has(ext) || type === 'text/markdown') {
    return { kind: 'markdown', language: 'markdown' };
  }
  // Own keys only: a file named `a.constructor` has no language, not Object's constructor.
  const language = Object.hasOwn(LANGUAGES, ext) ? LANGUAGES[ext]! : null;
  const isText = type.startsWith('text/') || TEXT_TYPES.has(type);
  // A name alone makes text of an untyped upload (a script sent as octet-stream), but never of
  // a type known to be something else (a .ts video is MPEG-TS, and typed video/mp2t above).
  const untyped = type === 'application/octet-stream';
  if (isText || (untyped && (language !== null || PLAIN.has(ext)))) {
    return { kind: 'text', language };
  }
  return { kind: 'other', language: null };
}

/** The web app's name for the type, shown beside the icon of a file it cannot show. */
export function typeLabel(mimeType: string, filename: string): string {
  const ext = extensionOf(filename);
  return ext ? `${ext.toUpperCase()} file` : mimeType;
}
