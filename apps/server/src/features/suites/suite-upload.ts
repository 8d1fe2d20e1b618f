import type { Readable } from 'node:stream';
import { checkLimits, normaliseSuitePath, SUITE_LIMITS, type SuiteFiles, type SuiteIssue, SuiteValidationError } from '@fullstop/engine';
import yauzl from 'yauzl';

// A suite sent from the console: a folder's files (each with its path relative to the chosen folder) or one zip.
// Both end as the same SuiteFiles the CLI reads from disk, under the same limits and path rules.

export interface UploadedFile {
  /** As the browser sent it: "my-suite/specs/home.spec.ts" for a folder upload, or an entry's name in a zip. */
  path: string;
  content: Buffer;
}

/** What the CLI's folder reader leaves out too (hidden files, node_modules), and the folders macOS adds to zips. */
function isSkipped(p: string): boolean {
  return p.split('/').some((s) => s.startsWith('.') || s === 'node_modules' || s === '__MACOSX');
}

/**
 * The suite's files by their path in the suite. A folder upload names every file under the chosen folder
 * ("my-suite/suite.json"), and a zip often holds one top folder: without a suite.json at the top, a folder
 * shared by every file is taken off. Unsafe paths are refused, each named.
 */
export function suiteFilesOfUpload(uploaded: UploadedFile[]): SuiteFiles {
  const kept = uploaded.map((f) => ({ ...f, path: f.path.replace(/\\/g, '/').replace(/^\.\//, '') })).filter((f) => !isSkipped(f.path));
  const tops = new Set(kept.map((f) => (f.path.includes('/') ? f.path.split('/')[0] : '')));
  const [top] = [...tops];
  const strip = tops.size === 1 && top && !kept.some((f) => f.path === 'suite.json');
  const files: SuiteFiles = new Map();
  const issues: SuiteIssue[] = [];
  let total = 0;
  for (const f of kept) {
    const raw = strip ? f.path.slice(top.length + 1) : f.path;
    const p = normaliseSuitePath(raw);
    if (!p) {
      issues.push({ file: f.path, field: '(path)', reason: 'is not a safe relative path (letters, digits, spaces and ._()@+- only; no "..")' });
      continue;
    }
    if (files.has(p)) {
      issues.push({ file: p, field: '(path)', reason: 'is listed twice' });
      continue;
    }
    files.set(p, f.content);
    total += f.content.length;
    checkLimits(files.size, total);
  }
  if (issues.length > 0) throw new SuiteValidationError(issues);
  return files;
}

const zipIssue = (reason: string) => new SuiteValidationError([{ file: '(zip)', field: '(archive)', reason }]);

/** At most this many entries (folders included) are even looked at. */
const MAX_ZIP_ENTRIES = SUITE_LIMITS.maxFiles * 5;

/**
 * The files of a zip, refusing before inflating what would break the suite's limits (entries, declared sizes)
 * and, while inflating, anything past them (a lying header); symbolic links and unsafe names are refused.
 */
export function unzipSuite(zipBuffer: Buffer): Promise<UploadedFile[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zipBuffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (openErr, zip) => {
      if (openErr || !zip) return reject(zipIssue(`is not a readable zip archive (${openErr?.message ?? 'unknown error'})`));
      if (zip.entryCount > MAX_ZIP_ENTRIES) return reject(zipIssue(`holds ${zip.entryCount} entries; a suite may hold at most ${SUITE_LIMITS.maxFiles} files`));
      const out: UploadedFile[] = [];
      let total = 0;
      const fail = (err: unknown) => {
        zip.close();
        reject(err instanceof SuiteValidationError ? err : zipIssue(`could not be read (${err instanceof Error ? err.message : String(err)})`));
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName;
        if (name.endsWith('/')) return zip.readEntry();
        const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
        if (mode === 0o120000) return fail(new SuiteValidationError([{ file: name, field: '(file)', reason: 'symbolic links are not allowed' }]));
        if (isSkipped(name)) return zip.readEntry();
        try {
          checkLimits(out.length + 1, total + entry.uncompressedSize);
        } catch (err) {
          return fail(err);
        }
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return fail(streamErr);
          readAll(stream, SUITE_LIMITS.maxTotalBytes - total)
            .then((content) => {
              total += content.length;
              out.push({ path: name, content });
              zip.readEntry();
            })
            .catch(fail);
        });
      });
      zip.readEntry();
    });
  });
}

function readAll(stream: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        stream.destroy();
        try {
          checkLimits(0, SUITE_LIMITS.maxTotalBytes + 1);
        } catch (err) {
          reject(err);
        }
        return;
      }
      chunks.push(c);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
