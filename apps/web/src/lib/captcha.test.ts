import { describe, expect, it } from 'vitest';
import { CAPTCHA_ALPHABET, CAPTCHA_LENGTH, captchaMatches, generateCaptcha } from './captcha.ts';

describe('captcha', () => {
  it('draws from the 62 letters and digits', () => {
    expect(CAPTCHA_ALPHABET).toHaveLength(62);
    expect(new Set(CAPTCHA_ALPHABET).size).toBe(62);
    expect(CAPTCHA_ALPHABET).toMatch(/^[A-Za-z0-9]+$/);
  });

  it('is 6 characters of that alphabet', () => {
    for (let i = 0; i < 500; i++) {
      const code = generateCaptcha();
      expect(code).toHaveLength(CAPTCHA_LENGTH);
      expect(code).toMatch(/^[A-Za-z0-9]{6}$/);
    }
  });

  it('uses the injected random source', () => {
    expect(generateCaptcha(() => 0)).toBe('AAAAAA');
    expect(generateCaptcha(() => 61)).toBe('999999');
    let i = 0;
    expect(generateCaptcha(() => [26, 27, 52, 53, 0, 25][i++] as number)).toBe('ab01AZ');
  });

  it('reaches every character with the default source', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) for (const c of generateCaptcha()) seen.add(c);
    expect(seen.size).toBe(62);
  });

  it('varies between calls', () => {
    const codes = new Set(Array.from({ length: 50 }, () => generateCaptcha()));
    expect(codes.size).toBeGreaterThan(45);
  });

  it('matches exactly, case included', () => {
    expect(captchaMatches('aB3dE9', 'aB3dE9')).toBe(true);
    expect(captchaMatches('ab3de9', 'aB3dE9')).toBe(false);
    expect(captchaMatches('', 'aB3dE9')).toBe(false);
  });
});
