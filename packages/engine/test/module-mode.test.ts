import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteNeedsEsmLoader } from '../src/runners/browser/module-mode.ts';

describe("whether a suite needs Playwright's ES module loader", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'fullstop-module-mode-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const suite = async (name: string, files: Record<string, string>, parent = root) => {
    const dir = path.join(parent, name);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    return dir;
  };

  it('does not for TypeScript specs under no package.json, or one that names no type', async () => {
    expect(await suiteNeedsEsmLoader(await suite('plain', { 'home.spec.ts': '', 'lib/helpers.ts': '' }))).toBe(false);
    expect(await suiteNeedsEsmLoader(await suite('commonjs', { 'package.json': '{"name":"x","type":"commonjs"}', 'home.spec.ts': '' }))).toBe(false);
    expect(await suiteNeedsEsmLoader(await suite('torn', { 'package.json': '{"type":', 'home.spec.ts': '' }))).toBe(false);
  });

  it('does for .mts or .mjs files, a package.json of type module in it, or the nearest above it', async () => {
    expect(await suiteNeedsEsmLoader(await suite('mts', { 'home.spec.mts': '' }))).toBe(true);
    expect(await suiteNeedsEsmLoader(await suite('mjs', { 'lib/data.mjs': '', 'home.spec.ts': '' }))).toBe(true);
    expect(await suiteNeedsEsmLoader(await suite('nested', { 'e2e/package.json': '{"type":"module"}', 'e2e/home.spec.ts': '' }))).toBe(true);
    const above = await suite('workspace', { 'package.json': '{"type":"module"}' });
    expect(await suiteNeedsEsmLoader(await suite('suite', { 'home.spec.ts': '' }, above))).toBe(true);
  });
});
