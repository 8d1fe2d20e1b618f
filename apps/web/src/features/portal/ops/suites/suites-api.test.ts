import { describe, expect, it } from 'vitest';
import { importIssuesOf } from './suites-api.ts';

describe('a refused suite import', () => {
  it('lists each problem as "file · field: reason"', () => {
    const text = JSON.stringify({
      message: 'The suite is not valid',
      code: 'SUITE_INVALID',
      issues: [{ file: 'suite.json', field: 'groups.0.tests.0.kind', reason: 'must be one of browser, api' }],
    });
    expect(importIssuesOf({ status: 400, message: 'The suite is not valid', text })).toEqual(['suite.json · groups.0.tests.0.kind: must be one of browser, api']);
  });

  it('has no list for other failures', () => {
    expect(importIssuesOf({ status: 413, message: 'Too large', text: '{"message":"Too large"}' })).toEqual([]);
    expect(importIssuesOf({ status: 0, message: 'offline', text: '' })).toEqual([]);
  });
});
