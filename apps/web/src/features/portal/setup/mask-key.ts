/** How many of the key's last characters stay readable, so a client can tell their keys apart. */
const VISIBLE_TAIL = 4;
const BULLETS = '••••••••';

/** `fsk_••••••••1234`: the key's prefix and last four characters; the rest stays off the screen. */
export function maskKey(key: string): string {
  if (!key) return '';
  const underscore = key.indexOf('_');
  const prefix = underscore > 0 && underscore < 8 ? key.slice(0, underscore + 1) : '';
  if (key.length - prefix.length <= VISIBLE_TAIL) return `${prefix}${BULLETS}`;
  return `${prefix}${BULLETS}${key.slice(-VISIBLE_TAIL)}`;
}
