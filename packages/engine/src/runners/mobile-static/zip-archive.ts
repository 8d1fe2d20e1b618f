import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { RunAbortedError } from '../../errors.ts';
import { AppFileError, formatBytes } from './app-file-error.ts';

/** What one app archive may hold. The upload route and the runner apply the same rules. */
export interface ArchiveLimits {
  /** Entries in the central directory. */
  maxEntries: number;
  /** The sum of every entry's declared inflated size. */
  maxInflatedBytes: number;
  /** What one entry that is read (a manifest, an Info.plist) may inflate to, counted while it inflates. */
  maxEntryBytes: number;
}

/** What the upload route accepts unless UPLOAD_MAX_ENTRIES, UPLOAD_MAX_INFLATED_BYTES, UPLOAD_MAX_MANIFEST_BYTES say otherwise. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 100_000,
  maxInflatedBytes: 2 * 1024 ** 3,
  maxEntryBytes: 16 * 1024 ** 2,
};

/**
 * What the analysis itself accepts, whatever the upload settings: it walks the central directory (cheap per entry)
 * and inflates one or two small files, so only the entry count and the size of those files matter to it. The
 * upload settings may not go past these.
 */
export const ANALYSIS_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 1_000_000,
  maxInflatedBytes: Number.MAX_SAFE_INTEGER,
  maxEntryBytes: 16 * 1024 ** 2,
};

export interface ArchiveQuery {
  /** How the archive is named in messages: "APK", "IPA". */
  label: string;
  /** Entries to inflate and return. A name asked for twice in one archive is refused (which one is real?). */
  read(name: string): boolean;
  /** Entries only to note as present. */
  note?(name: string): boolean;
  /** Stops the walk (a run's time limit or cancel): a central directory may hold a million entries. */
  signal?: AbortSignal;
}

export interface ArchiveContents {
  entryCount: number;
  /** The sum of declared inflated sizes (only the entries read are inflated, and counted as they are). */
  declaredInflatedBytes: number;
  files: Map<string, Buffer>;
  noted: Set<string>;
}

const malformed = (label: string, reason: string, cause?: unknown) =>
  new AppFileError('app_malformed', `the ${label} is not a readable zip archive: ${reason}`, { cause });

function openZip(file: string, label: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) {
        const code = (err as NodeJS.ErrnoException | null)?.code;
        if (code === 'ENOENT') return reject(new AppFileError('app_missing', `the uploaded ${label} is not on the server's storage any more: upload it again`));
        return reject(malformed(label, err?.message ?? 'it cannot be opened', err));
      }
      resolve(zip);
    });
  });
}

/** Walks the central directory only: entry count and declared sizes are refused here, before anything inflates. */
function walkCentralDirectory(zip: yauzl.ZipFile, limits: ArchiveLimits, query: ArchiveQuery) {
  const label = query.label;
  return new Promise<{ wanted: yauzl.Entry[]; noted: Set<string>; declared: number }>((resolve, reject) => {
    if (zip.entryCount > limits.maxEntries) {
      return reject(new AppFileError('app_too_large', `the ${label} has ${zip.entryCount} entries, more than the limit of ${limits.maxEntries}`));
    }
    const wanted: yauzl.Entry[] = [];
    const names = new Set<string>();
    const noted = new Set<string>();
    let declared = 0;
    zip.on('error', (err: Error) => reject(malformed(label, err.message, err)));
    zip.on('end', () => resolve({ wanted, noted, declared }));
    zip.on('entry', (entry: yauzl.Entry) => {
      if (query.signal?.aborted) return reject(new RunAbortedError());
      declared += entry.uncompressedSize;
      if (declared > limits.maxInflatedBytes) {
        return reject(new AppFileError('app_too_large', `the ${label}'s entries would inflate to more than ${formatBytes(limits.maxInflatedBytes)}, the limit (at least ${formatBytes(declared)} declared)`));
      }
      if (query.read(entry.fileName)) {
        if (names.has(entry.fileName)) return reject(new AppFileError('app_malformed', `the ${label} holds ${entry.fileName} twice`));
        names.add(entry.fileName);
        wanted.push(entry);
      } else if (query.note?.(entry.fileName)) {
        noted.add(entry.fileName);
      }
      zip.readEntry();
    });
    zip.readEntry();
  });
}

function openRaw(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    // Deflated entries come out raw and inflate in our own zlib stream, which is destroyed at the cap.
    // (@types/yauzl marks every option as required; yauzl itself takes any subset.)
    const options = (entry.compressionMethod === 8 ? { decompress: false } : {}) as yauzl.ZipFileOptions;
    zip.openReadStream(entry, options, (err, stream) => (err || !stream ? reject(err ?? new Error('no stream')) : resolve(stream)));
  });
}

/**
 * Inflates one entry, counting the bytes as they come: past `cap` it stops at once, whatever the entry declared.
 * Memory stays within the cap plus one zlib chunk.
 */
export async function inflateEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, cap: number, label: string): Promise<Buffer> {
  const tooLarge = () => new AppFileError('app_too_large', `${entry.fileName} in the ${label} inflates past ${formatBytes(cap)}, the limit for a file the analysis reads`);
  if (entry.uncompressedSize > cap) throw tooLarge();
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new AppFileError('app_malformed', `${entry.fileName} in the ${label} uses compression method ${entry.compressionMethod}; only stored and deflated entries are read`);
  }
  let raw: Readable;
  try {
    raw = await openRaw(zip, entry);
  } catch (err) {
    throw new AppFileError('app_malformed', `${entry.fileName} in the ${label} cannot be read: ${(err as Error).message}`, { cause: err });
  }
  const inflate = entry.compressionMethod === 8 ? createInflateRaw() : null;
  const out: Readable = inflate ? raw.pipe(inflate) : raw;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      raw.destroy();
      inflate?.destroy();
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const broken = (err: Error) =>
      finish(new AppFileError('app_malformed', `${entry.fileName} in the ${label} cannot be inflated: ${err.message}`, { cause: err }));
    out.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) return finish(tooLarge());
      chunks.push(chunk);
    });
    out.on('end', () => finish());
    out.on('error', broken);
    if (inflate) raw.on('error', broken);
  });
}

/**
 * Reads what an app analysis needs from a zip archive without trusting it: refuses an absurd entry count or
 * declared size from the central directory, then inflates only the entries asked for, each capped in bytes.
 */
export async function readArchive(file: string, limits: ArchiveLimits, query: ArchiveQuery): Promise<ArchiveContents> {
  const zip = await openZip(file, query.label);
  try {
    const { wanted, noted, declared } = await walkCentralDirectory(zip, limits, query);
    const files = new Map<string, Buffer>();
    for (const entry of wanted) files.set(entry.fileName, await inflateEntry(zip, entry, limits.maxEntryBytes, query.label));
    return { entryCount: zip.entryCount, declaredInflatedBytes: declared, files, noted };
  } finally {
    zip.close();
  }
}
