/**
 * Files for the preview page's browser tests: a picture, a short video and sound made with
 * ffmpeg (the CI installs it), a small PDF written by hand, source code, Markdown, and files
 * whose contents or names try to run script (each would set `window.pwned`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs ffmpeg with lavfi sources into a file of this name, and answers its bytes. */
function ffmpeg(name: string, args: string[]): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upshot-preview-'));
  const out = path.join(dir, name);
  try {
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A test card picture, 1200 × 800. */
export const picture = () =>
  ffmpeg('card.png', ['-f', 'lavfi', '-i', 'testsrc2=size=1200x800', '-frames:v', '1']);

/** Two seconds of a test card with a tone, VP8 and Vorbis in WebM, 640 × 360. */
export const video = () =>
  ffmpeg('clip.webm', [
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=15:duration=2'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
    ...['-c:v', 'libvpx', '-b:v', '300k', '-c:a', 'libvorbis', '-shortest'],
  ]);

/** Two seconds of a tone, Vorbis in Ogg. */
export const sound = () =>
  ffmpeg('tone.ogg', ['-f', 'lavfi', '-i', 'sine=frequency=330:duration=2', '-c:a', 'libvorbis']);

/**
 * A one-page PDF that says `text` (Helvetica, no fonts embedded), running `script` (the PDF's
 * own JavaScript) when it opens, if given.
 */
export function pdf(text: string, script?: string): Buffer {
  const stream = `BT /F1 28 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R${script ? ' /OpenAction 6 0 R' : ''} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...(script
      ? [
          '<< /Type /Action /S /JavaScript /JS 7 0 R >>',
          `<< /Length ${script.length} >>\nstream\n${script}\nendstream`,
        ]
      : []),
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export const CODE = `"""A small script, to see the colours."""
import sys
from pathlib import Path


def count_lines(path: Path) -> int:
    # Comments are dimmed; strings and numbers stand out.
    with path.open(encoding="utf-8") as f:
        return sum(1 for _ in f)


if __name__ == "__main__":
    total = 0
    for name in sys.argv[1:]:
        total += count_lines(Path(name))
    print(f"{total} lines in {len(sys.argv) - 1} files, a rather long line to show what wrapping does when it is on")
`;

export const MARKDOWN = `# Release notes

Upshot shows **Markdown** rendered, with _emphasis_, \`code\` and [a link](https://example.com).

- Pages for every link
- Text and code highlighted
- Nothing in a file runs

| Type | Shown as |
| ---- | -------- |
| PNG  | picture  |
| MD   | this     |

\`\`\`js
console.log('fenced code');
\`\`\`

> A quotation, dimmed.
`;

/** Every way a Markdown file might try to run script; a sanitizer must leave none. */
export const HOSTILE_MARKDOWN = `# Hostile

<script>window.pwned = 'script'</script>

<img src="x" onerror="window.pwned = 'onerror'">

<svg onload="window.pwned = 'svg'"><script>window.pwned = 'svg script'</script></svg>

[click me](javascript:window.pwned='link')

<a href="javascript:window.pwned='anchor'">anchor</a>

<iframe src="javascript:window.pwned='iframe'"></iframe>

<form action="javascript:window.pwned='form'"><button>send</button></form>

<details open ontoggle="window.pwned = 'ontoggle'"><summary>s</summary>d</details>
`;

/** HTML source: shown as code, never rendered. */
export const HOSTILE_HTML = `<!doctype html>
<script>window.pwned = 'html'</script>
<img src=x onerror="window.pwned = 'html onerror'">
<svg onload="window.pwned = 'html svg'"></svg>
`;

/** A file name that would run script if it were put in the page unescaped. */
export const HOSTILE_NAME = `<img src=x onerror=window.pwned=1>.txt`;
