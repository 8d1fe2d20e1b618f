import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KIND_RUNNERS } from '../sandbox/kind-runners.ts';
import { TEST_KINDS } from '../types.ts';
import { runners } from './index.ts';
import { isRetried, kinds } from './kinds.ts';

const runnersDir = fileURLToPath(new URL('.', import.meta.url));

describe('kinds', () => {
  it('finds every kind named in TEST_KINDS by its folder: its facts, its runner carrying them, in every registry', async () => {
    for (const kind of TEST_KINDS) {
      for (const file of ['facts.ts', 'index.ts']) expect(existsSync(`${runnersDir}/${kind}/${file}`), `runners/${kind}/${file}`).toBe(true);
      const { facts } = (await import(`./${kind}/facts.ts`)) as { facts?: { kind: string } };
      const { runner } = (await import(`./${kind}/index.ts`)) as { runner?: { kind: string; facts: unknown } };
      expect(facts?.kind, `runners/${kind}/facts.ts exports its facts`).toBe(kind);
      expect(runner?.kind, `runners/${kind}/index.ts exports its runner`).toBe(kind);
      expect(runner?.facts, `the ${kind} runner carries its folder's facts`).toBe(facts);
      expect(kinds[kind]).toBe(facts);
      expect(runners[kind]).toBe(runner);
      expect(await KIND_RUNNERS[kind]()).toBe(runner);
    }
  });

  it('names every runner folder in TEST_KINDS', () => {
    const folders = readdirSync(runnersDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && existsSync(`${runnersDir}/${entry.name}/facts.ts`));
    expect(folders.map((entry) => entry.name).sort()).toEqual([...TEST_KINDS].sort());
  });

  it('gives a run that could not run a summary of its own kind', () => {
    for (const kind of TEST_KINDS) expect(kinds[kind].emptySummary().kind).toBe(kind);
  });

  it('retries what another attempt could change, and nothing that would only repeat', () => {
    for (const kind of TEST_KINDS) {
      for (const code of ['validation_error', 'target_policy', 'time_limit', 'engine_missing']) expect(isRetried(kind, code)).toBe(false);
      for (const code of [null, 'crashed', 'out_of_memory', 'aborted', 'shutdown']) expect(isRetried(kind, code)).toBe(true);
    }
    expect(isRetried('retired-kind', 'validation_error')).toBe(false);
    expect(isRetried('retired-kind', 'crashed')).toBe(true);
  });
});
