import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SUITE_FILE_VIEW_MAX_BYTES, type SuiteDiffResponse, type SuiteFileChange, type SuiteFileEntry, type SuiteFileResponse } from '@fullstop/contracts';
import { normaliseSuitePath, readSuiteFolder } from '@fullstop/engine';
import { NotFoundError, ValidationError } from '../../lib/errors.ts';
import type { SuiteRow } from './suite-repository.ts';

// Reading a stored suite version for the console: its files, one file's text, a diff between two versions.

/** One file's patch is cut past this, and the whole diff stops adding patches past the total. */
const PATCH_MAX_CHARS = 256 * 1024;
const DIFF_MAX_CHARS = 2 * 1024 * 1024;
/** Myers' diff is quadratic at worst: a file that takes longer is shown as changed without its lines. */
const DIFF_TIMEOUT_MS = 2_000;

/** Every regular file of the version, by its path in the suite, sorted. */
export async function listSuiteFiles(suite: SuiteRow): Promise<SuiteFileEntry[]> {
  const out: SuiteFileEntry[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(suite.dir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(childRel);
      else if (e.isFile()) out.push({ path: childRel, size: (await fs.stat(path.join(suite.dir, childRel))).size });
    }
  };
  await walk('');
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** Text, unless it holds a NUL byte or is not UTF-8 (an incomplete last character of a cut file is fine). */
function decodeText(buf: Buffer): string | null {
  if (buf.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf, { stream: true });
  } catch {
    return null;
  }
}

/**
 * The absolute path of a file inside the version's folder: refuses anything that is not a plain relative path
 * (`..`, absolute, hidden, odd characters, however it was encoded) and anything resolving outside the folder.
 */
function fileInSuite(suite: SuiteRow, rawPath: string): string {
  const rel = normaliseSuitePath(rawPath);
  const root = path.resolve(suite.dir);
  const abs = rel ? path.resolve(root, ...rel.split('/')) : null;
  if (!rel || !abs || !abs.startsWith(root + path.sep)) {
    throw new ValidationError(`path: "${rawPath}" is not a file of this suite (give a path relative to the suite folder)`, 'path');
  }
  return abs;
}

/** One file of the version as text (at most SUITE_FILE_VIEW_MAX_BYTES); a binary file answers a note instead. */
export async function readSuiteFile(suite: SuiteRow, rawPath: string): Promise<SuiteFileResponse> {
  const abs = fileInSuite(suite, rawPath);
  const rel = normaliseSuitePath(rawPath)!;
  const stat = await fs.lstat(abs).catch(() => null);
  if (!stat?.isFile()) throw new NotFoundError(`File "${rel}" not found in suite version ${suite.version}`);
  const handle = await fs.open(abs, 'r');
  let buf: Buffer;
  try {
    buf = Buffer.alloc(Math.min(stat.size, SUITE_FILE_VIEW_MAX_BYTES));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    buf = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const truncated = stat.size > buf.length;
  const text = decodeText(buf);
  if (text === null) {
    return { path: rel, size: stat.size, binary: true, truncated: false, content: null, note: 'This is a binary file: it cannot be shown as text.' };
  }
  return {
    path: rel,
    size: stat.size,
    binary: false,
    truncated,
    content: text,
    ...(truncated ? { note: `Only the first ${SUITE_FILE_VIEW_MAX_BYTES / (1024 * 1024)} MB of this file is shown.` } : {}),
  };
}

/** What changed from one version to another, file by file (added, removed, changed), with unified diffs. */
export async function diffSuites(from: SuiteRow, to: SuiteRow): Promise<SuiteDiffResponse> {
  const [a, b] = await Promise.all([readSuiteFolder(from.dir), readSuiteFolder(to.dir)]);
  // Only the console's diff view needs it: loaded on its first use, not with the server.
  const { createTwoFilesPatch } = await import('diff');
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x.localeCompare(y));
  const files: SuiteFileChange[] = [];
  let unchanged = 0;
  let budget = DIFF_MAX_CHARS;
  for (const p of paths) {
    const before = a.get(p);
    const after = b.get(p);
    if (before && after && before.equals(after)) {
      unchanged++;
      continue;
    }
    const status = !before ? 'added' : !after ? 'removed' : 'changed';
    const oldText = before ? decodeText(before) : '';
    const newText = after ? decodeText(after) : '';
    if (oldText === null || newText === null) {
      files.push({ path: p, status, binary: true, patch: null, truncated: false });
      continue;
    }
    if (budget <= 0) {
      files.push({ path: p, status, binary: false, patch: null, truncated: true });
      continue;
    }
    const patch = createTwoFilesPatch(before ? `a/${p}` : '/dev/null', after ? `b/${p}` : '/dev/null', oldText, newText, `version ${from.version}`, `version ${to.version}`, {
      context: 3,
      timeout: DIFF_TIMEOUT_MS,
    });
    if (patch === undefined) {
      files.push({ path: p, status, binary: false, patch: null, truncated: true });
      continue;
    }
    const cut = patch.length > Math.min(PATCH_MAX_CHARS, budget);
    const shown = cut ? patch.slice(0, patch.lastIndexOf('\n', Math.min(PATCH_MAX_CHARS, budget)) + 1) : patch;
    budget -= shown.length;
    files.push({ path: p, status, binary: false, patch: shown, truncated: cut });
  }
  return { from: from.version, to: to.version, files, unchanged };
}
