import { describe, expect, it } from 'vitest';
import { cellLabel, cellMatrixOf, failingWhere } from './cell-matrix-model.ts';

const grid = (failing: string[], cells = ['chromium/desktop', 'chromium/phone', 'firefox/desktop', 'firefox/phone']) =>
  Object.fromEntries(cells.map((c) => [c, failing.includes(c) ? ('failed' as const) : ('passed' as const)]));

describe('where a test in cells fails, in words', () => {
  it('names one engine, one device, or one cell, when the failures are exactly those', () => {
    expect(failingWhere(grid(['firefox/desktop', 'firefox/phone']))).toBe('fails on Firefox only');
    expect(failingWhere(grid(['chromium/phone', 'firefox/phone']))).toBe('fails on phone only');
    expect(failingWhere(grid(['firefox/phone']))).toBe('fails on Firefox on phone only');
    expect(failingWhere(grid(['chromium/desktop', 'firefox/phone']))).toBe('fails on Chromium · desktop, Firefox · phone');
  });

  it('says nothing when nothing fails or everything does, and skips do not count', () => {
    expect(failingWhere(grid([]))).toBeNull();
    expect(failingWhere(grid(['chromium/desktop', 'chromium/phone', 'firefox/desktop', 'firefox/phone']))).toBeNull();
    expect(failingWhere({ 'chromium/phone': 'failed', 'firefox/phone': 'skipped', 'chromium/desktop': 'passed' })).toBe('fails on phone only');
  });

  it('reads a third part of a cell (a network) as it reads the others', () => {
    const cells = ['chromium/phone/cable', 'chromium/phone/slow-3g', 'firefox/phone/cable', 'firefox/phone/slow-3g'];
    expect(failingWhere(grid(['chromium/phone/slow-3g', 'firefox/phone/slow-3g'], cells))).toBe('fails on slow 3G only');
    expect(cellLabel('firefox/phone/slow-3g')).toBe('Firefox · phone · slow 3G');
  });

  it('makes a row per case and a column per cell, and says where the whole test fails', () => {
    const m = cellMatrixOf([
      { name: 'loads', status: 'passed', cell: 'chromium/phone', error: null },
      { name: 'loads', status: 'passed', cell: 'firefox/phone', error: null },
      { name: 'pays', status: 'passed', cell: 'chromium/phone', error: null },
      { name: 'pays', status: 'failed', cell: 'firefox/phone', error: 'no button' },
    ]);
    expect(m.cells).toEqual(['chromium/phone', 'firefox/phone']);
    expect(m.rows.map((r) => [r.name, r.where])).toEqual([['loads', null], ['pays', 'fails on Firefox only']]);
    expect(m.rows[1]!.cells['firefox/phone']).toEqual({ status: 'failed', error: 'no button' });
    expect(m.where).toBe('fails on Firefox only');
  });
});
