import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { samples } from '../reporters/fixtures.ts';
import { escapeHtml } from '../reporters/html/escape.ts';
import { kindBody, renderReportHtml } from '../reporters/html/render-report.ts';
import { keyFigure, verdict } from '../reporters/html/verdict.ts';
import { KIND_RUNNERS } from '../sandbox/kind-runners.ts';
import { TEST_KINDS } from '../types.ts';
import { runners } from './index.ts';
import { isRetried, kinds } from './kinds.ts';
import { kindReports } from './reports.ts';

const runnersDir = fileURLToPath(new URL('.', import.meta.url));

describe('kinds', () => {
  it('finds every kind named in TEST_KINDS by its folder: its facts, its runner carrying them, its report and sample, in every registry', async () => {
    for (const kind of TEST_KINDS) {
      for (const file of ['facts.ts', 'index.ts', 'report.ts', 'sample.ts']) expect(existsSync(`${runnersDir}/${kind}/${file}`), `runners/${kind}/${file}`).toBe(true);
      const { facts } = (await import(`./${kind}/facts.ts`)) as { facts?: { kind: string } };
      const { runner } = (await import(`./${kind}/index.ts`)) as { runner?: { kind: string; facts: unknown } };
      const { report } = (await import(`./${kind}/report.ts`)) as { report?: { kind: string } };
      const { sample } = (await import(`./${kind}/sample.ts`)) as { sample?: unknown };
      expect(facts?.kind, `runners/${kind}/facts.ts exports its facts`).toBe(kind);
      expect(runner?.kind, `runners/${kind}/index.ts exports its runner`).toBe(kind);
      expect(runner?.facts, `the ${kind} runner carries its folder's facts`).toBe(facts);
      expect(report?.kind, `runners/${kind}/report.ts exports its report`).toBe(kind);
      expect(sample, `runners/${kind}/sample.ts exports its sample report`).toBeTypeOf('function');
      expect(kinds[kind]).toBe(facts);
      expect(runners[kind]).toBe(runner);
      expect(await KIND_RUNNERS[kind]()).toBe(runner);
      expect(kindReports[kind]).toBe(report);
      expect(samples[kind]).toBe(sample);
    }
  });

  it("reports every kind in its own words: its title and label, and its sample's verdict, key figure and sections (docs/decisions/0073)", () => {
    for (const kind of TEST_KINDS) {
      expect(kinds[kind].title, `the title in runners/${kind}/facts.ts`).toMatch(/\S/);
      expect(kinds[kind].label, `the label in runners/${kind}/facts.ts`).toMatch(/\S/);
      const r = samples[kind]();
      expect(r.kind, `runners/${kind}/sample.ts is a report of its kind`).toBe(kind);
      expect(r.summary?.kind).toBe(kind);
      expect(renderReportHtml(r)).toContain(`<p class="eyebrow">${escapeHtml(kinds[kind].label)} · `);
      for (const status of ['passed', 'failed'] as const) {
        // What a run reads like when its kind says nothing of its own.
        expect(verdict({ ...r, status }), `the ${kind} verdict`).not.toMatch(/^(Passed|Failed)?$/);
        expect(keyFigure({ ...r, status }), `the ${kind} key figure`).not.toMatch(/^(–)?$/);
      }
      // A kind without sections of its own would render nothing here, silently.
      expect(kindBody({ ...r, error: null }, {}), `the ${kind} report's sections`).toContain('<section');
      expect(kindBody({ ...r, error: null }, { condensed: true }), `the ${kind} run report's section`).toMatch(/\S/);
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
