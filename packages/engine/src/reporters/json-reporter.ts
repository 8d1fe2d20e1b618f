import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Reporter } from './types.ts';

/** The run's summary as data: what the insights are computed from, and what a script would read. */
export const jsonReporter: Reporter = {
  format: 'json',
  contentType: 'application/json',
  fileName: 'report.json',
  async write(report, { outDir }) {
    const file = path.join(outDir, this.fileName);
    await fs.writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    return file;
  },
};
