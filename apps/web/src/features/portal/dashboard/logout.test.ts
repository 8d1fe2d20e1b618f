import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@/lib/auth-storage.ts';
import { http } from '@/lib/http-client.ts';
import { CLEAR_CACHE_PATHS, logout } from './logout.ts';

afterEach(() => vi.restoreAllMocks());

describe('logout', () => {
  it('clears the server caches, then ends the server session, then empties storage and goes to /login', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'access-1');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh-1');
    localStorage.setItem(STORAGE_KEYS.isAuthenticated, 'true');
    const steps: string[] = [];
    vi.spyOn(http, 'request').mockImplementation(async (path: string) => {
      steps.push(path);
      return undefined as never;
    });
    vi.spyOn(http, 'endServerSession').mockImplementation(async () => {
      // The refresh token is still stored when the server session is ended.
      steps.push(`end ${localStorage.getItem(STORAGE_KEYS.refreshToken)}`);
      throw new Error('network down');
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const goTo = vi.fn();
    await logout(vi.fn() as never, goTo);
    expect(steps.slice(0, 3).sort()).toEqual([...CLEAR_CACHE_PATHS].sort());
    expect(steps[3]).toBe('end refresh-1');
    // A failed server logout is only logged: the local one still happens.
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(goTo).toHaveBeenCalledWith('/login');
  });
});
