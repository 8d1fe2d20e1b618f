import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors.ts';
import { runner } from './index.ts';
import { pageOf } from './options.ts';

const validate = (options: Record<string, unknown>) => () => runner.validate({ name: 'v', group: 'g', kind: 'visual', options });

function refusal(options: Record<string, unknown>): { field: string; reason: string } {
  try {
    validate(options)();
  } catch (error) {
    if (error instanceof ValidationError) return { field: error.field, reason: error.reason };
    throw error;
  }
  throw new Error('accepted');
}

describe('visual test options', () => {
  it('takes pages, masks, a tolerance and the matrix', () => {
    expect(validate({})).not.toThrow();
    expect(validate({ pages: ['/', { path: '/offers', name: 'Offers', mask: ['.ad'] }], mask: ['#clock'], tolerance: 0.01, fullPage: false, engines: ['chromium', 'firefox'], devices: ['desktop', 'phone'] })).not.toThrow();
  });

  it('names the field and says what a tolerance is', () => {
    for (const tolerance of [-0.1, 2]) expect(refusal({ tolerance })).toEqual({ field: 'options.tolerance', reason: 'tolerance is a ratio from 0 to 1 (0.001 is 0.1%)' });
    expect(refusal({ tolerance: '1%' })).toEqual({ field: 'options.tolerance', reason: 'tolerance is a ratio from 0 to 1' });
    expect(refusal({ mask: [''] }).field).toBe('options.mask.0');
    expect(refusal({ engines: ['opera'] }).reason).toMatch(/unknown engine "opera"/);
    expect(refusal({ pages: ['/a', { path: '/b', name: '/a' }] })).toEqual({ field: 'options.pages.1', reason: 'names the page "/a" twice: give one a different name' });
    expect(refusal({ engines: ['chromium', 'firefox'], devices: ['desktop', 'phone', 'tablet'], networks: ['none', 'slow-3g', '4g'] }).reason).toMatch(/make 18 cells/);
  });

  it('masks on a page what the test masks everywhere and what the page masks itself', () => {
    expect(pageOf({ path: '/offers', mask: ['.ad', '#clock'] }, ['#clock', '.date'])).toEqual({ name: '/offers', path: '/offers', mask: ['#clock', '.date', '.ad'] });
    expect(pageOf('/', [])).toEqual({ name: '/', path: '/', mask: [] });
  });
});
