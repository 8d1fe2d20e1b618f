import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it('cuts the credentials out of a logged address and keeps the rest', () => {
    expect(redactUrl('/login?resetToken=abc123&x=1')).toBe('/login?resetToken=[redacted]&x=1');
    expect(redactUrl('/test/events?token=eyJ.x.y')).toBe('/test/events?token=[redacted]');
    expect(redactUrl('/report/fetch/all?page=2')).toBe('/report/fetch/all?page=2');
  });
});
