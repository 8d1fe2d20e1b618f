import { describe, expect, it } from 'vitest';
import { maskKey } from './mask-key.ts';

describe('the masked API key', () => {
  it('keeps the prefix and the last four characters', () => {
    expect(maskKey('fsk_abcdefghijklmnop1234')).toBe('fsk_••••••••1234');
    expect(maskKey('abcdefghijkl9876')).toBe('••••••••9876');
  });

  it('shows nothing of a key too short to keep a tail of, and nothing for no key', () => {
    expect(maskKey('fsk_12')).toBe('fsk_••••••••');
    expect(maskKey('')).toBe('');
  });
});
