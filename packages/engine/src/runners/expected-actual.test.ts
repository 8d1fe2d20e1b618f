import { describe, expect, it } from 'vitest';
import { MAX_EXPECTATION_CHARS, expectedActual, shownHeader, shownValue } from './expected-actual.ts';

describe('expected and actual in words', () => {
  it('hides a cookie value but keeps its name and flags', () => {
    expect(shownHeader('set-cookie', 'session=s3cr3t; Path=/; HttpOnly')).toBe('set-cookie: session=…; Path=/; HttpOnly');
    expect(shownHeader('content-type', 'application/json')).toBe('content-type: application/json');
  });

  it('cuts long values and long lines, on one line', () => {
    expect(shownValue('x'.repeat(500))).toHaveLength(120);
    expect(shownValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(shownValue(undefined)).toBe('nothing');
    const words = expectedActual('status 200\n'.repeat(100), 'ok');
    expect(words.expected).toHaveLength(MAX_EXPECTATION_CHARS);
    expect(words.expected).not.toContain('\n');
    expect(words.actual).toBe('ok');
  });
});
