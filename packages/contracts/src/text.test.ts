import { describe, expect, it } from 'vitest';
import { createClientRequest } from './requests.ts';
import { hasUnsafeText, isoDateTime, text } from './text.ts';

describe('text()', () => {
  it('finds NUL and unpaired surrogates, and lets whole pairs through', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00', '\uDBFF\uDBFF', 'end\uD83D']) expect(hasUnsafeText(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['', 'plain', 'emoji 🧪', 'Ω≈ç√', '\u202e', 'tab\tnew\nline']) expect(hasUnsafeText(good), good).toBe(false);
  });

  it('names the field in its message', () => {
    const result = text('title').safeParse('a\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('title must not contain NUL bytes or unpaired surrogates');
    expect(text('title').safeParse(3).error?.issues[0]?.message).toBe('title must be a string');
  });

  it('is what the request schemas use', () => {
    const parsed = createClientRequest.safeParse({ kind: 'retest', title: 'ok title', details: 'bad \uDC00' });
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['details'], message: 'details must not contain NUL bytes or unpaired surrogates' });
  });
});

describe('isoDateTime()', () => {
  const before = isoDateTime('before');
  it('takes dates between 2000 and 2100, with Z or an offset', () => {
    for (const ok of ['2000-01-01T00:00:00Z', '2025-06-01T12:30:00.123Z', '2099-12-31T23:59:59+02:00']) expect(before.safeParse(ok).success, ok).toBe(true);
  });
  it('refuses year 0000, far dates and malformed ones', () => {
    for (const bad of ['0000-01-01T00:00:00Z', '1999-12-31T23:59:59Z', '2100-01-01T00:00:00Z', '2024-02-30T10:00:00Z', 'yesterday', '']) {
      expect(before.safeParse(bad).success, bad).toBe(false);
    }
  });
});
