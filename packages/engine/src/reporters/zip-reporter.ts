import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { Reporter } from './types.ts';

/** The little of yazl (which ships no types) this reporter uses. */
interface ZipFile {
  outputStream: Readable;
  addFile(realPath: string, metadataPath: string): void;
  end(): void;
}
const yazl = createRequire(import.meta.url)('yazl') as { ZipFile: new () => ZipFile };

/**
 * Every artifact of the run in one archive: the run folder as it is (Playwright's HTML report, traces,
 * screenshots, wapiti's and Lighthouse's reports, each attempt's log) plus the other report files.
 * Written last, so it holds them all.
 */
export const zipReporter: Reporter = {
  format: 'zip',
  contentType: 'application/zip',
  fileName: 'report.zip',
  async write(_report, { runDir, outDir }) {
    const file = path.join(outDir, this.fileName);
    const zip = new yazl.ZipFile();
    const add = async (root: string, prefix: string, skip: Set<string>) => {
      for (const rel of await listFiles(root)) {
        if (skip.has(rel)) continue;
        zip.addFile(path.join(root, rel), `${prefix}${rel}`);
      }
    };
    const inside = path.relative(runDir, outDir);
    const outInsideRun = inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside);
    await add(runDir, 'artifacts/', outInsideRun ? new Set(await listFiles(outDir).then((l) => l.map((f) => path.join(inside, f)))) : new Set());
    await add(outDir, '', new Set([this.fileName]));
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(file));
    return file;
  },
};

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    let entries;
    try {
      entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel ? path.join(rel, e.name) : e.name;
      if (e.isDirectory()) await walk(child);
      else if (e.isFile()) out.push(child);
    }
  };
  await walk('');
  return out.sort();
}
