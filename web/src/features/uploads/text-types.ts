// New text's types as plain data: what each one names the file and the type it is sent as.
// The type is sent with the file because the server guesses some extensions as something
// else (`.ts` as MPEG video, `.rs` as XML) and some not at all (`.py`, `.go`).

export type TextType = {
  id: string;
  label: string;
  /** Without the dot. */
  extension: string;
  mimeType: string;
};

export const TEXT_TYPES: readonly TextType[] = [
  { id: 'plain', label: 'Plain text', extension: 'txt', mimeType: 'text/plain' },
  { id: 'markdown', label: 'Markdown', extension: 'md', mimeType: 'text/markdown' },
  { id: 'python', label: 'Python', extension: 'py', mimeType: 'text/x-python' },
  { id: 'typescript', label: 'TypeScript', extension: 'ts', mimeType: 'text/typescript' },
  { id: 'javascript', label: 'JavaScript', extension: 'js', mimeType: 'text/javascript' },
  { id: 'json', label: 'JSON', extension: 'json', mimeType: 'application/json' },
  { id: 'shell', label: 'Shell', extension: 'sh', mimeType: 'application/x-sh' },
  { id: 'yaml', label: 'YAML', extension: 'yaml', mimeType: 'application/yaml' },
  { id: 'html', label: 'HTML', extension: 'html', mimeType: 'text/html' },
  { id: 'css', label: 'CSS', extension: 'css', mimeType: 'text/css' },
  { id: 'sql', label: 'SQL', extension: 'sql', mimeType: 'application/sql' },
  { id: 'go', label: 'Go', extension: 'go', mimeType: 'text/x-go' },
  { id: 'rust', label: 'Rust', extension: 'rs', mimeType: 'text/x-rust' },
];

export const PLAIN_TEXT: TextType = TEXT_TYPES[0]!;

/** Other spellings of a type's extension, recognised in a typed name. */
const ALIASES: Record<string, string> = { markdown: 'md', yml: 'yaml', htm: 'html', text: 'txt' };

export function textTypeById(id: string): TextType {
  return TEXT_TYPES.find((type) => type.id === id) ?? PLAIN_TEXT;
}

function extensionOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : null;
}

/** The type a name's extension stands for, or null when it names none of them. */
export function textTypeOfName(name: string): TextType | null {
  const extension = extensionOf(name.trim());
  if (extension === null) return null;
  const canonical = ALIASES[extension] ?? extension;
  return TEXT_TYPES.find((type) => type.extension === canonical) ?? null;
}

/** `paste-2026-05-04.txt`, the date being the viewer's. */
export function defaultTextFilename(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `paste-${date}.${PLAIN_TEXT.extension}`;
}

/**
 * The name with `type`'s extension: one of the types' extensions is replaced, any other kept
 * as part of the name (`notes.v2` becomes `notes.v2.md`).
 */
export function withExtension(name: string, type: TextType): string {
  const trimmed = name.trim();
  const base = textTypeOfName(trimmed) ? trimmed.slice(0, trimmed.lastIndexOf('.')) : trimmed;
  return `${base || 'paste'}.${type.extension}`;
}

/** The text as the file New text sends: UTF-8, typed as its type says. */
export function textFile(text: string, name: string, type: TextType): File {
  return new File([text], name.trim(), { type: type.mimeType });
}
