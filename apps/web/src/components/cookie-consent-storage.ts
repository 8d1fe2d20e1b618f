/** Where the visitor's answer lives: a local-storage flag, mirrored in a site-wide cookie when accepted. */
export const CONSENT_STORAGE_KEY = 'cookieConsent';
export const CONSENT_COOKIE = 'CookieConsent';
const ONE_YEAR_S = 365 * 24 * 60 * 60;

export type ConsentAnswer = 'accepted' | 'rejected';

export function readConsent(): ConsentAnswer | null {
  try {
    const flag = localStorage.getItem(CONSENT_STORAGE_KEY);
    if (flag === 'true') return 'accepted';
    if (flag === 'false') return 'rejected';
  } catch {
    // Storage can be blocked; fall back to the cookie.
  }
  const cookie = document.cookie.split('; ').find((c) => c.startsWith(`${CONSENT_COOKIE}=`));
  return cookie ? 'accepted' : null;
}

export function saveConsent(answer: ConsentAnswer): void {
  try {
    localStorage.setItem(CONSENT_STORAGE_KEY, answer === 'accepted' ? 'true' : 'false');
  } catch {
    // Without storage the answer only lasts for this page.
  }
  if (answer === 'accepted') {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${CONSENT_COOKIE}=true; path=/; max-age=${ONE_YEAR_S}; SameSite=Lax${secure}`;
  } else {
    document.cookie = `${CONSENT_COOKIE}=; path=/; max-age=0; SameSite=Lax`;
  }
}
