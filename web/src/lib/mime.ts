// Content types for files the browser hands over with a blank type (common on Windows and for
// less usual extensions). The server guesses too; guessing here keeps the list and the upload
// record consistent with what the user sees. A short list on purpose: the full mime database
// would triple the bundle for types nobody uploads from a browser.
const MIME_BY_EXTENSION: Record<string, string> = {
  // images
  apng: 'image/apng',
  avif: 'image/avif',
  bmp: 'image/bmp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  ico: 'image/x-icon',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
  // video
  '3gp': 'video/3gpp',
  avi: 'video/x-msvideo',
  m4v: 'video/x-m4v',
  mkv: 'video/x-matroska',
  mov: 'video/quicktime',
  mp4: 'video/mp4',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  ogv: 'video/ogg',
  webm: 'video/webm',
  wmv: 'video/x-ms-wmv',
  // audio
  aac: 'audio/aac',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  mid: 'audio/midi',
  midi: 'audio/midi',
  mp3: 'audio/mpeg',
  oga: 'audio/ogg',
  ogg: 'audio/ogg',
  opus: 'audio/opus',
  wav: 'audio/wav',
  weba: 'audio/webm',
  // documents and text
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  epub: 'application/epub+zip',
  htm: 'text/html',
  html: 'text/html',
  json: 'application/json',
  log: 'text/plain',
  md: 'text/markdown',
  odp: 'application/vnd.oasis.opendocument.presentation',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odt: 'application/vnd.oasis.opendocument.text',
  pdf: 'application/pdf',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  rtf: 'application/rtf',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xml: 'application/xml',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  // code
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  // archives
  '7z': 'application/x-7z-compressed',
  bz2: 'application/x-bzip2',
  gz: 'application/gzip',
  rar: 'application/vnd.rar',
  tar: 'application/x-tar',
  tgz: 'application/gzip',
  xz: 'application/x-xz',
  zip: 'application/zip',
  zst: 'application/zstd',
  // other binaries
  apk: 'application/vnd.android.package-archive',
  dmg: 'application/x-apple-diskimage',
  iso: 'application/x-iso9660-image',
  wasm: 'application/wasm',
};

/** The content type for a file name's extension, or '' when the extension is unknown. */
export function guessMimeType(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0 || dot === filename.length - 1) return '';
  return MIME_BY_EXTENSION[filename.slice(dot + 1).toLowerCase()] ?? '';
}

/** The same file with a type guessed from its name when the browser gave none. */
export function withGuessedType(file: File): File {
  // react-dropzone's file-selector guesses common types by shadowing `type` on the object; the
  // Blob underneath keeps its blank type, and that is what FormData sends. Bake it in instead.
  const shadowed = Object.prototype.hasOwnProperty.call(file, 'type');
  if (file.type !== '' && !shadowed) return file;
  const type = file.type || guessMimeType(file.name);
  if (type === '') return file;
  return new File([file], file.name, { type, lastModified: file.lastModified });
}
