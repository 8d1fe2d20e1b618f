import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ArtifactStore,
  assertArtifactKey,
  type ByteRange,
  type ListedObject,
  type StoredBody,
  type StoredObject,
} from './artifact-store.ts';

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * The embedded default: every key is a file under `DATA_DIR/storage`. A write goes to a temporary name next to
 * its file and is renamed into place, so a reader never sees half a file and a failed write leaves nothing.
 */
export class DataDirStore implements ArtifactStore {
  readonly kind = 'data-dir';

  constructor(private readonly root: string) {}

  localPath(key: string): string {
    return path.join(this.root, ...assertArtifactKey(key).split('/'));
  }

  async put(key: string, body: Readable): Promise<number> {
    const file = this.localPath(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const part = `${file}.part-${randomBytes(6).toString('hex')}`;
    try {
      const out = createWriteStream(part, { mode: 0o600 });
      await pipeline(body, out);
      await rename(part, file);
      return out.bytesWritten;
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
  }

  async putFile(key: string, file: string): Promise<number> {
    const target = this.localPath(key);
    if (path.resolve(file) === target) return (await stat(target)).size;
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const part = `${target}.part-${randomBytes(6).toString('hex')}`;
    try {
      await copyFile(file, part);
      await rename(part, target);
      return (await stat(target)).size;
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
  }

  async putDir(prefix: string, dir: string): Promise<number> {
    let count = 0;
    for (const rel of await listFiles(dir)) {
      await this.putFile(`${assertArtifactKey(prefix).replace(/\/$/, '')}/${rel}`, path.join(dir, ...rel.split('/')));
      count += 1;
    }
    return count;
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      // A run's folder holds what a client's test wrote: a link in it to outside the store is never served.
      const [root, real] = await Promise.all([realpath(this.root), realpath(this.localPath(key))]);
      if (!real.startsWith(root + path.sep)) return null;
      const s = await stat(real);
      return s.isFile() ? { key, size: s.size, lastModified: s.mtime } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredBody | null> {
    const found = await this.stat(key);
    if (!found) return null;
    const file = this.localPath(key);
    if (!range) {
      const body = createReadStream(file);
      return { ...found, body };
    }
    const end = Math.min(range.end ?? found.size - 1, found.size - 1);
    const body = createReadStream(file, { start: range.start, end });
    return { ...found, body, range: { start: range.start, end } };
  }

  async download(key: string, file: string): Promise<boolean> {
    const source = this.localPath(key);
    if (!(await this.stat(key))) return false;
    if (path.resolve(file) === source) return true;
    await mkdir(path.dirname(file), { recursive: true });
    await copyFile(source, file);
    return true;
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    const clean = assertArtifactKey(prefix).replace(/\/$/, '');
    const dir = this.localPath(clean);
    for (const rel of await listFiles(dir)) {
      const key = `${clean}/${rel}`;
      const s = await stat(path.join(dir, ...rel.split('/'))).catch(() => null);
      if (s?.isFile()) yield { key, size: s.size };
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const dir = this.localPath(assertArtifactKey(prefix).replace(/\/$/, ''));
    const count = (await listFiles(dir)).length;
    await rm(dir, { recursive: true, force: true });
    return count;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
  }
}

/** Every file under a folder, as relative POSIX paths (none when the folder does not exist). Skips unfinished writes. */
export async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  return entries
    .filter((e) => e.isFile() && !/\.part-[0-9a-f]{12}$/.test(e.name))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}
