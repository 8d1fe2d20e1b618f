import { paths } from '@/config/paths.ts';
import { clearAuth } from '@/lib/auth-storage.ts';
import { http } from '@/lib/http-client.ts';
import { portalApi } from '../store/portal-api.ts';
import { loggedOut } from '../store/session-slice.ts';
import type { AppDispatch } from '../store/store.ts';

export const CLEAR_CACHE_PATHS = ['/test/clearCache', '/report/clearCache', '/clientProfile/clearCache'] as const;

/**
 * The spec's logout, in its order: the three server cache clears together (a failure is only logged), then the
 * stored auth removed, the session state reset, and a full page load of /login so no state survives in memory.
 */
export async function logout(dispatch: AppDispatch, goTo: (url: string) => void = (url) => window.location.assign(url)) {
  const results = await Promise.allSettled(
    CLEAR_CACHE_PATHS.map((path) => http.request(path, { method: 'POST', responseType: 'none', refreshOnUnauthorized: false })),
  );
  results.forEach((result, i) => {
    if (result.status === 'rejected') console.error(`Logout: ${CLEAR_CACHE_PATHS[i]} failed`, result.reason);
  });
  clearAuth();
  dispatch(loggedOut());
  dispatch(portalApi.util.resetApiState());
  goTo(paths.login);
}
