import type { LoginResponse, RefreshResponse, UserData } from '@fullstop/contracts';

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

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

// Storage can throw (private mode, quota, disabled cookies); a broken store reads as "signed out".
function read(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: StorageKey, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the session simply will not survive a reload.
  }
}

function remove(key: StorageKey): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Ignored for the same reason as write().
  }
}

export function isAuthenticated(): boolean {
  return read(STORAGE_KEYS.isAuthenticated) === 'true';
}

export const getAccessToken = (): string | null => read(STORAGE_KEYS.accessToken);
export const getRefreshToken = (): string | null => read(STORAGE_KEYS.refreshToken);
export const getApiKey = (): string | null => read(STORAGE_KEYS.apiKey);

export function getUserData(): UserData | null {
  const raw = read(STORAGE_KEYS.userData);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UserData;
  } catch {
    return null;
  }
}

export function storeLogin(login: LoginResponse): void {
  write(STORAGE_KEYS.accessToken, login.accessToken);
  write(STORAGE_KEYS.refreshToken, login.refreshToken);
  write(STORAGE_KEYS.userData, JSON.stringify(login.userData));
  write(STORAGE_KEYS.isAuthenticated, 'true');
}

export function storeTokens(tokens: RefreshResponse): void {
  write(STORAGE_KEYS.accessToken, tokens.accessToken);
  write(STORAGE_KEYS.refreshToken, tokens.refreshToken);
}

export function storeApiKey(apiKey: string): void {
  write(STORAGE_KEYS.apiKey, apiKey);
}

/** Removes every stored auth item, then leaves the flag reading "false" as the spec's logout does. */
export function clearAuth(): void {
  for (const key of Object.values(STORAGE_KEYS)) remove(key);
  write(STORAGE_KEYS.isAuthenticated, 'false');
}
