/** The 62 characters a captcha draws from: letters of both cases and digits. */
export const CAPTCHA_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const CAPTCHA_LENGTH = 6;

/** A fresh captcha code. `random` returns integers in [0, max); tests pass their own. */
export function generateCaptcha(random: (max: number) => number = secureRandomInt): string {
  let code = '';
  for (let i = 0; i < CAPTCHA_LENGTH; i++) {
    code += CAPTCHA_ALPHABET[random(CAPTCHA_ALPHABET.length)];
  }
  return code;
}

function secureRandomInt(max: number): number {
  // Rejection sampling keeps every character equally likely.
  const limit = Math.floor(256 / max) * max;
  const byte = new Uint8Array(1);
  do {
    crypto.getRandomValues(byte);
  } while ((byte[0] ?? 0) >= limit);
  return (byte[0] ?? 0) % max;
}

export function captchaMatches(entered: string, expected: string): boolean {
  return entered === expected;
}
