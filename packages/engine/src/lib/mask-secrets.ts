import { promises as fs } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';

/** What a secret's value becomes in every artifact. */
export const MASK = '••••';
/** Screenshots are pixels: a value typed into a page shows there only as the page drew it (decision 0060). */
const IMAGE_FILE = /\.(png|jpe?g|webp|gif|avif|ico)$/i;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** A zip inlined as a data URL (Playwright's HTML report carries its data so). */
const INLINE_ZIP = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/g;
/** Base64 runs shorter than this are not masked: too many innocent strings would match. */
const MIN_BASE64_CHARS = 6;

/**
 * The base64 text of `value` wherever it sits in a longer base64 string: for each of the three byte alignments,
 * the characters that depend on the value's bytes only.
 */
function base64Forms(value: Buffer, url: boolean): string[] {
  const forms: string[] = [];
  for (const pad of [0, 1, 2]) {
    const n = pad + value.length;
    const text = Buffer.concat([Buffer.alloc(pad), value]).toString(url ? 'base64url' : 'base64');
    const start = [0, 2, 3][pad]!;
    const end = Math.floor(n / 3) * 4 + [0, 1, 2][n % 3]!;
    const core = text.slice(start, end);
    if (core.length >= MIN_BASE64_CHARS) forms.push(core);
  }
  return forms;
}

/** Every form a value takes in a file: as is, URL- and form-encoded, JSON- and HTML-escaped, in base64. */
export function maskForms(values: string[]): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    if (!value) continue;
    const uri = encodeURIComponent(value);
    const json = JSON.stringify(value).slice(1, -1);
    const html = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    for (const f of [value, uri, uri.replace(/%20/g, '+'), json, html, JSON.stringify(json).slice(1, -1)]) forms.add(f);
    const bytes = Buffer.from(value, 'utf8');
    for (const f of [...base64Forms(bytes, false), ...base64Forms(bytes, true)]) forms.add(f);
  }
  // Longest first: a value that contains another is masked whole.
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

export function maskText(text: string, forms: string[]): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(MASK);
  return out;
}

/** Masks any JSON-shaped value (a runner's result, a log line's data) through its text. */
export function maskValue<T>(value: T, forms: string[]): T {
  if (!forms.length || value === undefined) return value;
  const text = JSON.stringify(value);
  const masked = maskText(text, forms);
  return masked === text ? value : (JSON.parse(masked) as T);
}

function isText(buf: Buffer): boolean {
  return !buf.subarray(0, 8192).includes(0);
}

/** A file's bytes with every form masked: text as text, zips entry by entry, other binaries as they are. */
export async function maskBuffer(buf: Buffer, forms: string[]): Promise<Buffer> {
  if (buf.subarray(0, 4).equals(ZIP_MAGIC)) return maskZip(buf, forms);
  if (!isText(buf)) return buf;
  let text = buf.toString('utf8');
  if (text.includes('data:application/zip;base64,')) {
    const parts: { from: string; to: string }[] = [];
    for (const m of text.matchAll(INLINE_ZIP)) {
      const zipped = Buffer.from(m[1]!, 'base64');
      const masked = await maskZip(zipped, forms).catch(() => zipped);
      if (masked !== zipped) parts.push({ from: m[1]!, to: masked.toString('base64') });
    }
    for (const p of parts) text = text.split(p.from).join(p.to);
  }
  const masked = maskText(text, forms);
  return masked === buf.toString('utf8') ? buf : Buffer.from(masked, 'utf8');
}

function readZip(buf: Buffer): Promise<{ name: string; data: Buffer | null; mtime: Date; mode: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('unreadable zip'));
      const entries: { name: string; data: Buffer | null; mtime: Date; mode: number }[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        const base = { name: entry.fileName, mtime: entry.getLastModDate(), mode: (entry.externalFileAttributes >>> 16) || 0o100644 };
        if (entry.fileName.endsWith('/')) {
          entries.push({ ...base, data: null });
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('unreadable zip entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ ...base, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The zip rewritten with each entry masked; the same buffer when no entry held a form. */
async function maskZip(buf: Buffer, forms: string[]): Promise<Buffer> {
  const entries = await readZip(buf);
  let changed = false;
  const out = new yazl.ZipFile();
  for (const entry of entries) {
    if (!entry.data) {
      out.addEmptyDirectory(entry.name, { mtime: entry.mtime });
      continue;
    }
    const masked = IMAGE_FILE.test(entry.name) ? entry.data : await maskBuffer(entry.data, forms);
    if (masked !== entry.data) changed = true;
    out.addBuffer(masked, entry.name, { mtime: entry.mtime, mode: entry.mode });
  }
  if (!changed) return buf;
  out.end();
  const chunks: Buffer[] = [];
  for await (const chunk of out.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p; // links are left alone: they may point outside the run folder
  }
}

/**
 * The last pass of an attempt: every file of its folder with the secrets' values masked (text files, and each
 * entry of zips such as Playwright traces). Answers how many files changed; never says what it masked.
 */
export async function maskRunFolder(runDir: string, values: string[]): Promise<number> {
  const forms = maskForms(values);
  if (!forms.length) return 0;
  let changed = 0;
  for await (const file of walk(runDir)) {
    if (IMAGE_FILE.test(file)) continue;
    const buf = await fs.readFile(file);
    const masked = await maskBuffer(buf, forms).catch(() => buf);
    if (masked !== buf) {
      await fs.writeFile(file, masked);
      changed++;
    }
  }
  return changed;
}
