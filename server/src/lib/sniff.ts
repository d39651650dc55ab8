/**
 * The type an upload is stored as, from what it claims and its first bytes. A file that claims
 * a picture, a video or a sound but begins with markup is stored as the markup it is (SVG, XML
 * or HTML), which the links serve as an attachment; nothing else is read, so other claims cost
 * nothing. Both the simple and the chunked upload ask here.
 */
import { Transform } from 'node:stream';

/** How much of a file's start decides its type. */
export const SNIFF_BYTES = 1024;

/** Whether a claimed type is checked against the file's first bytes. */
export function sniffsClaim(claimed: string): boolean {
  return /^(image|video|audio)\//.test(claimed) && claimed !== 'image/svg+xml';
}

/** The start of the file as text: after a UTF-8 or UTF-16 byte-order mark, decoded as such. */
function textOf(head: Buffer): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return head.toString('latin1', 3);
  if (head[0] === 0xff && head[1] === 0xfe) return head.subarray(2).toString('utf16le');
  if (head[0] === 0xfe && head[1] === 0xff) {
    const swapped = Buffer.from(head.subarray(2, 2 + ((head.length - 2) & ~1)));
    return swapped.swap16().toString('utf16le');
  }
  return head.toString('latin1');
}

// The tags WHATWG's MIME sniffing takes for HTML, each ended by a space or ">".
const HTML_TAGS =
  /^(!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p)[\s>/]/i;

/**
 * What markup at the start of a file is: 'svg', 'xml' or 'html'; null when the file does not
 * begin with markup (after white space). Comments, processing instructions and a doctype are
 * stepped over to the first element; when it lies past the bytes read, the file is XML if it
 * began with an XML prolog, else HTML.
 */
function markupOf(head: Buffer): 'svg' | 'xml' | 'html' | null {
  let text = textOf(head).replace(/^[\t\n\f\r ]+/, '');
  if (!/^<[a-z?!/]/i.test(text)) return null;
  let prolog = false;
  for (;;) {
    text = text.replace(/^[\t\n\f\r ]+/, '');
    if (/^<!doctype\s+svg[\s>]/i.test(text) || /^<svg[\s>/:]/i.test(text)) return 'svg';
    if (HTML_TAGS.test(text.slice(1))) return 'html';
    let end: number;
    if (text.startsWith('<!--')) end = text.indexOf('-->') + 3;
    else if (text.startsWith('<?')) {
      prolog ||= /^<\?xml[\s?]/i.test(text);
      end = text.indexOf('?>') + 2;
    } else if (text.startsWith('<!')) end = text.indexOf('>') + 1;
    else return prolog || /^<[a-z_][\w.-]*:/i.test(text) ? 'xml' : 'html';
    // The first element lies past what was read.
    if (end <= 2) return prolog ? 'xml' : 'html';
    text = text.slice(end);
    if (text === '') return prolog ? 'xml' : 'html';
  }
}

const MARKUP_TYPES = { svg: 'image/svg+xml', xml: 'application/xml', html: 'text/html' } as const;

/**
 * The type to store for a file claiming `claimed` whose first bytes are `head` (up to
 * SNIFF_BYTES): the claim, unless it is a picture, a video or a sound that is really markup.
 */
export function storedType(claimed: string, head: Buffer): string {
  if (!sniffsClaim(claimed)) return claimed;
  const markup = markupOf(head.subarray(0, SNIFF_BYTES));
  return markup ? MARKUP_TYPES[markup] : claimed;
}

/** A pass-through that keeps a copy of the first SNIFF_BYTES bytes going by. */
export function headCapture(): { stream: Transform; head: () => Buffer } {
  const parts: Buffer[] = [];
  let kept = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (kept < SNIFF_BYTES) {
        const part = chunk.subarray(0, SNIFF_BYTES - kept);
        parts.push(Buffer.from(part));
        kept += part.length;
      }
      callback(null, chunk);
    },
  });
  return { stream, head: () => Buffer.concat(parts) };
}
