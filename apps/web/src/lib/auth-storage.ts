/**
 * The items the spec stores after login, under their exact names. Only the session client and the auth
 * feature write them; the header reads the flag to choose between Dashboard and Login.
 */
export const STORAGE_KEYS = {
  userData: 'userData',
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  apiKey: 'apiKey',
  isAuthenticated: 'isAuthenticated',
} as const;

export function isAuthenticated(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.isAuthenticated) === 'true';
  } catch {
    return false;
  }
}
