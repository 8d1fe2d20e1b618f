import { describe, expect, it } from 'vitest';
import { inboxQuery } from './ops-requests-api.ts';

describe('the inbox filters', () => {
  it('become a query string without the empty ones', () => {
    expect(inboxQuery({})).toBe('');
    expect(inboxQuery({ status: 'new' })).toBe('?status=new');
    expect(inboxQuery({ status: 'done', kind: 'question', clientId: 'c-1' })).toBe('?status=done&kind=question&clientId=c-1');
  });
});
