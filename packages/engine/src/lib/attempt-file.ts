import { constants } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';

/**
 * Reading a file a runner wrote in an attempt's folder. A runner process is another OS user and may be hostile (it
 * ran a client's code and loaded a client's pages): the file may be a symbolic link to a file of the server's, a
 * FIFO that never ends, a device, a hard link, or gigabytes. So the file is opened without following a link and
 * without blocking, must be a regular file of one link, and is read up to a size limit; JSON is parsed with a
 * schema. What went wrong is said in fixed words (`AttemptFileError.message` quotes nothing of the file); the detail
 * (`detail`) is for the server's log only.
 */

/** What a server read takes of an attempt's file unless told otherwise. */
export const ATTEMPT_FILE_MAX_BYTES = 8 * 1024 * 1024;

const CHUNK_BYTES = 64 * 1024;

export type AttemptFileProblem = 'missing' | 'not-a-file' | 'too-large' | 'unreadable' | 'not-json' | 'not-valid';

const megabytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${bytes} bytes`);

/** Fixed words per problem: nothing of the file. */
function saysOf(problem: AttemptFileProblem, maxBytes: number): string {
  switch (problem) {
    case 'missing':
      return 'is missing';
    case 'not-a-file':
      return 'is not a regular file';
    case 'too-large':
      return `is larger than ${megabytes(maxBytes)}`;
    case 'unreadable':
      return 'could not be read';
    case 'not-json':
      return 'is not valid JSON';
    case 'not-valid':
      return 'is not what was expected';
  }
}

export class AttemptFileError extends Error {
  /** What is wrong, in fixed words ("is not a regular file"): the message without the file's name. */
  readonly says: string;
  /** For the server's log only: it may carry what the file holds (a JSON parser's snippet, a schema's paths). */
  readonly detail: string;

  readonly file: string;
  readonly problem: AttemptFileProblem;

  constructor(file: string, problem: AttemptFileProblem, detail: string, maxBytes: number) {
    // The file's own name (chosen by the server), never its folder (a data directory's layout) or its contents.
    const says = saysOf(problem, maxBytes);
    super(`${path.basename(file)} ${says}`);
    this.name = 'AttemptFileError';
    this.file = file;
    this.problem = problem;
    this.says = says;
    this.detail = detail;
  }
}

export interface AttemptFileOptions {
  /** Larger files are refused (ATTEMPT_FILE_MAX_BYTES unless told). */
  maxBytes?: number;
}

/**
 * Opens what a path names itself: O_NOFOLLOW, a symbolic link is refused (ELOOP); O_NONBLOCK, a FIFO opens at once
 * (and is refused), never waits for a writer; O_NOCTTY, a terminal is not taken.
 */
export const OPEN_UNFOLLOWED = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** An attempt's file, whole: a regular file of one link, at most `maxBytes`; an AttemptFileError otherwise. */
export async function readAttemptFile(file: string, options: AttemptFileOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? ATTEMPT_FILE_MAX_BYTES;
  const refuse = (problem: AttemptFileProblem, detail: string) => new AttemptFileError(file, problem, detail, maxBytes);
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_UNFOLLOWED);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
    // ELOOP: a symbolic link (O_NOFOLLOW); ENXIO: a socket.
    throw refuse(code === 'ENOENT' ? 'missing' : code === 'ELOOP' || code === 'ENXIO' ? 'not-a-file' : 'unreadable', `open: ${code}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refuse('not-a-file', `mode ${info.mode.toString(8)}`);
    // A hard link to a file elsewhere (a runner may link what it can read) is not the runner's own file.
    if (info.nlink !== 1) throw refuse('not-a-file', `${info.nlink} links`);
    if (info.size > maxBytes) throw refuse('too-large', `${info.size} bytes`);
    // Read to the end, not to the size seen: a file that grows past the limit meanwhile is refused too.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw refuse('too-large', `more than ${maxBytes} bytes read`);
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof AttemptFileError) throw err;
    throw refuse('unreadable', `read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** An attempt's JSON file, parsed by `schema` (readAttemptFile's checks first); an AttemptFileError otherwise. */
export async function readAttemptJson<S extends z.ZodType>(file: string, schema: S, options: AttemptFileOptions = {}): Promise<z.output<S>> {
  const maxBytes = options.maxBytes ?? ATTEMPT_FILE_MAX_BYTES;
  const body = await readAttemptFile(file, { maxBytes });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new AttemptFileError(file, 'not-json', (err as Error).message, maxBytes);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(the whole)'}: ${i.message}`);
    throw new AttemptFileError(file, 'not-valid', issues.join('; '), maxBytes);
  }
  return result.data;
}

/**
 * A file named by a path relative to an attempt's folder (a report's screenshot, an artifact): inside that folder
 * once every link is resolved (a link planted as a folder on the way out is refused too), then read as
 * `readAttemptFile` reads. Null where it is outside, missing or refused: a report leaves it out.
 */
export async function readInsideAttempt(root: string, rel: string, options: AttemptFileOptions = {}): Promise<Buffer | null> {
  try {
    const realRoot = await realpath(path.resolve(root));
    const real = await realpath(path.resolve(realRoot, rel));
    if (!real.startsWith(realRoot + path.sep)) return null;
    return await readAttemptFile(real, options);
  } catch {
    return null;
  }
}
