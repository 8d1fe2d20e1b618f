import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SuiteValidationError } from './suite-errors.ts';

/** A suite's files in memory, keyed by POSIX path relative to the suite folder. */
export type SuiteFiles = Map<string, Buffer>;

export const SUITE_LIMITS = {
  maxFiles: 200,
  maxTotalBytes: 5 * 1024 * 1024,
} as const;

/** Relative POSIX paths only: no absolute paths, no `..`, no hidden folders such as `.git`. */
export function normaliseSuitePath(raw: string): string | null {
  const p = raw.replace(/\\/g, '/').replace(/^\.\//, '');
  if (p === '' || p.startsWith('/') || p.includes('\0')) return null;
  const parts = p.split('/');
  if (parts.some((s) => s === '' || s === '.' || s === '..')) return null;
  if (parts.some((s) => s.startsWith('.'))) return null;
  if (!/^[A-Za-z0-9 ._()/@+-]+$/.test(p)) return null;
  return p;
}

/** Reads a suite folder from disk. Hidden files and node_modules are left out; symlinks are refused. */
export async function readSuiteFolder(dir: string): Promise<SuiteFiles> {
  const files: SuiteFiles = new Map();
  let total = 0;
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) {
        throw new SuiteValidationError([{ file: childRel, field: '(file)', reason: 'symbolic links are not allowed' }]);
      }
      if (e.isDirectory()) {
        await walk(childRel);
        continue;
      }
      if (!e.isFile()) continue;
      const content = await fs.readFile(path.join(dir, childRel));
      total += content.length;
      files.set(childRel, content);
      checkLimits(files.size, total);
    }
  };
  await walk('');
  return files;
}

export function checkLimits(count: number, totalBytes: number): void {
  if (count > SUITE_LIMITS.maxFiles) {
    throw new SuiteValidationError([
      { file: '(suite)', field: '(files)', reason: `a suite may hold at most ${SUITE_LIMITS.maxFiles} files` },
    ]);
  }
  if (totalBytes > SUITE_LIMITS.maxTotalBytes) {
    throw new SuiteValidationError([
      { file: '(suite)', field: '(files)', reason: `a suite may hold at most ${SUITE_LIMITS.maxTotalBytes} bytes` },
    ]);
  }
}

/** Writes a validated suite to a fresh folder (the stored version); the folder must not exist yet. */
export async function writeSuiteFolder(dir: string, files: SuiteFiles): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  for (const [rel, content] of files) {
    const target = path.join(dir, ...rel.split('/'));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  }
}
