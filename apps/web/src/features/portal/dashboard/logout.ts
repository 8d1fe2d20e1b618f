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
 * Between the clears and the removal, ours (the spec shows none): the session is ended on the server too.
 */
export async function logout(dispatch: AppDispatch, goTo: (url: string) => void = (url) => window.location.assign(url)) {
  const results = await Promise.allSettled(
    CLEAR_CACHE_PATHS.map((path) => http.request(path, { method: 'POST', responseType: 'none', refreshOnUnauthorized: false })),
  );
  results.forEach((result, i) => {
    if (result.status === 'rejected') console.error(`Logout: ${CLEAR_CACHE_PATHS[i]} failed`, result.reason);
  });
  // After the cache clears (they need the access token this ends), before the storage is emptied (it holds the
  // refresh token this sends). A failure is only logged, like the cache clears': the local logout goes on.
  await http.endServerSession().catch((error: unknown) => console.error('Logout: ending the server session failed', error));
  clearAuth();
  dispatch(loggedOut());
  dispatch(portalApi.util.resetApiState());
  goTo(paths.login);
}
