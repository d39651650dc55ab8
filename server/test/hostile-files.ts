/**
 * Hostile files, as an attacker would upload them: pages, scripts, SVG and XML that script, a
 * PDF with JavaScript, polyglots, an executable named .png, a text file claiming text/html and
 * the other way round, types in capitals or with parameters, markup named and typed as a picture,
 * a video or a sound. Each payload that runs writes XSS_MARK to the console, so a browser test
 * can tell; `served` and `disposition` are the headers Upshot must answer with.
 */
export const XSS_MARK = 'upshot-hostile-file-ran';

const SCRIPT = `<script>console.log("${XSS_MARK}")</script>`;
const ONLOAD = `onload="console.log('${XSS_MARK}')"`;
const SVG = `xmlns="http://www.w3.org/2000/svg"`;
const XHTML = `<html xmlns="http://www.w3.org/1999/xhtml"><body>${SCRIPT}</body></html>`;

export type HostileFile = {
  name: string;
  filename: string;
  /** The type the client claims; undefined: none (application/octet-stream). */
  claimed: string | undefined;
  body: string;
  /** The Content-Type Upshot must send. */
  served: string;
  disposition: 'attachment' | 'inline';
};

const file = (
  name: string,
  filename: string,
  claimed: string | undefined,
  body: string,
  served: string,
  disposition: 'attachment' | 'inline',
): HostileFile => ({ name, filename, claimed, body, served, disposition });

/** A PDF that runs JavaScript as it opens (Chromium's viewer runs it, sandbox or not). */
function pdfWithJavaScript(js: string): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Type /Action /S /JavaScript /JS (${js}) >>`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) pdf += `${String(at).padStart(10, '0')} 00000 n \n`;
  return `${pdf}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}
const PDF = pdfWithJavaScript(`app.alert('${XSS_MARK}');`);

const HTML = `<html><body><img src=x onerror="console.log('${XSS_MARK}')">${SCRIPT}</body></html>`;
const TEXT_HTML = 'text/html; charset=utf-8';

export const HOSTILE_FILES: HostileFile[] = [
  file('an HTML page', 'page.html', 'text/html', HTML, TEXT_HTML, 'attachment'),
  file(
    'an SVG that scripts',
    'logo.svg',
    'image/svg+xml',
    `<svg ${SVG} ${ONLOAD}>${SCRIPT}</svg>`,
    'image/svg+xml',
    'attachment',
  ),
  file(
    'an SVG sent without a type',
    'icon.svg',
    undefined,
    `<svg ${SVG} ${ONLOAD}/>`,
    'image/svg+xml',
    'attachment',
  ),
  file('XML holding XHTML', 'feed.xml', 'application/xml', XHTML, 'application/xml', 'attachment'),
  file(
    'an XHTML page',
    'page.xhtml',
    'application/xhtml+xml',
    XHTML,
    'application/xhtml+xml',
    'attachment',
  ),
  file(
    'an XSLT stylesheet',
    'style.xsl',
    'application/xslt+xml',
    '<xsl:stylesheet version="1.0"/>',
    'application/xslt+xml',
    'attachment',
  ),
  file(
    'JavaScript',
    'app.js',
    'text/javascript',
    `console.log("${XSS_MARK}")`,
    // Served as text: never a script of a page of the app's origin (content-policy.ts).
    'text/plain; charset=utf-8',
    'attachment',
  ),
  file('a PDF with JavaScript', 'doc.pdf', 'application/pdf', PDF, 'application/pdf', 'attachment'),
  file(
    'a GIF that is also JavaScript',
    'funny.gif',
    'image/gif',
    `GIF89a/*\x00\x00*/=1;console.log("${XSS_MARK}");//`,
    'image/gif',
    'inline',
  ),
  file(
    'an executable named .png',
    'photo.png',
    'image/png',
    'MZ\x90\x00\x03\x00\x00\x00PE\x00\x00This program cannot be run in DOS mode',
    'image/png',
    'inline',
  ),
  // A claimed picture, video or sound that begins with markup is stored as the markup it is.
  file(
    'an SVG named .png, claiming image/png',
    'icon.png',
    'image/png',
    `<svg ${SVG} ${ONLOAD}/>`,
    'image/svg+xml',
    'attachment',
  ),
  file('an HTML page named .png', 'shot.png', 'image/png', HTML, TEXT_HTML, 'attachment'),
  file(
    'an SVG behind a byte-order mark and an XML prolog, named .webp',
    'sticker.webp',
    'image/webp',
    `\xef\xbb\xbf\n <?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n<svg ${SVG} ${ONLOAD}>${SCRIPT}</svg>`,
    'image/svg+xml',
    'attachment',
  ),
  file(
    'XML named .jpg',
    'photo.jpg',
    'image/jpeg',
    `<?xml version="1.0"?>\n<data>${XHTML}</data>`,
    'application/xml',
    'attachment',
  ),
  file(
    'HTML named .mp4, sent without a type',
    'movie.mp4',
    undefined,
    HTML,
    TEXT_HTML,
    'attachment',
  ),
  file(
    'HTML named .mp3',
    'song.mp3',
    'audio/mpeg',
    `<!DOCTYPE html>${HTML}`,
    TEXT_HTML,
    'attachment',
  ),
  file(
    'a text file claiming text/html',
    'notes.txt',
    'text/html',
    `just notes ${HTML}`,
    TEXT_HTML,
    'attachment',
  ),
  file(
    'HTML claiming text/plain',
    'readme.txt',
    'text/plain',
    HTML,
    'text/plain; charset=utf-8',
    'inline',
  ),
  file('HTML sent without a type', 'index.html', undefined, HTML, TEXT_HTML, 'attachment'),
  file('a type in capitals', 'shout.html', 'TEXT/HTML', HTML, TEXT_HTML, 'attachment'),
  file(
    'a type with a UTF-7 charset',
    'old.txt',
    'text/plain; charset=utf-7',
    '+ADw-script+AD4-alert(1)+ADw-/script+AD4-',
    'text/plain; charset=utf-8',
    'inline',
  ),
  file(
    'multipart/x-mixed-replace',
    'stream',
    'multipart/x-mixed-replace',
    `--x\r\ncontent-type: text/html\r\n\r\n${HTML}`,
    'multipart/x-mixed-replace',
    'attachment',
  ),
  file(
    'Flash',
    'movie.swf',
    'application/x-shockwave-flash',
    'FWS\x09',
    'application/x-shockwave-flash',
    'attachment',
  ),
  file(
    'an HTML page claiming to be a video',
    'clip.mp4',
    'video/mp4',
    HTML,
    TEXT_HTML,
    'attachment',
  ),
];

/**
 * Types a browser could run as a document (or in a viewer of its own: Chromium runs a PDF's
 * JavaScript in a page of the file's origin, whatever its CSP says), whatever the file is called.
 */
export const SCRIPTABLE_TYPE = /html|xml|svg|javascript|ecmascript|xsl|multipart|shockwave|pdf/;
