import { describe, expect, it } from 'vitest';
import { topOpportunities } from './opportunities.ts';

const opportunity = (title: string, ms?: number, bytes?: number) => ({
  title,
  details: { type: 'opportunity', overallSavingsMs: ms, overallSavingsBytes: bytes },
});

describe('topOpportunities', () => {
  it('keeps the five opportunities that save the most time, then bytes, and drops those that save nothing', () => {
    const audits = {
      a: opportunity('Reduce unused JavaScript', 450, 120_000),
      b: opportunity('Enable text compression', 0, 48_000),
      c: opportunity('Serve images in next-gen formats', 1200.4, 300_000),
      d: opportunity('Eliminate render-blocking resources', 0, 0),
      e: { title: 'Largest Contentful Paint', details: { type: 'table', overallSavingsMs: 900 } },
      f: opportunity('Minify CSS', 30, 2_000),
      g: opportunity('Minify JavaScript', 30, 9_000),
      h: opportunity('Properly size images', 80, 10_000),
      i: { title: 'No details', details: null },
    };
    expect(topOpportunities(audits)).toEqual([
      { title: 'Serve images in next-gen formats', savingsMs: 1200, savingsBytes: 300_000 },
      { title: 'Reduce unused JavaScript', savingsMs: 450, savingsBytes: 120_000 },
      { title: 'Properly size images', savingsMs: 80, savingsBytes: 10_000 },
      { title: 'Minify JavaScript', savingsMs: 30, savingsBytes: 9_000 },
      { title: 'Minify CSS', savingsMs: 30, savingsBytes: 2_000 },
    ]);
  });

  it('leaves out what Lighthouse counts as passed, even with savings estimated', () => {
    const audits = {
      fast: { title: 'Initial server response time was short', score: 1, scoreDisplayMode: 'metricSavings', details: { type: 'opportunity', overallSavingsMs: 206 } },
      na: { title: 'Defer offscreen images', score: null, scoreDisplayMode: 'notApplicable', details: { type: 'opportunity', overallSavingsMs: 50 } },
      slow: { title: 'Reduce initial server response time', score: 0, scoreDisplayMode: 'metricSavings', details: { type: 'opportunity', overallSavingsMs: 1400 } },
    };
    expect(topOpportunities(audits)).toEqual([{ title: 'Reduce initial server response time', savingsMs: 1400 }]);
  });

  it('reports bytes alone when Lighthouse estimates no time saved', () => {
    expect(topOpportunities({ b: opportunity('Enable text compression', 0, 48_000) })).toEqual([{ title: 'Enable text compression', savingsBytes: 48_000 }]);
  });
});
