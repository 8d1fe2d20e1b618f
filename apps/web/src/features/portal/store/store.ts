import { configureStore } from '@reduxjs/toolkit';
import { http } from '@/lib/http-client.ts';
import { portalApi } from './portal-api.ts';
import { loggedOut, sessionSlice, tokenRefreshed } from './session-slice.ts';

export function createPortalStore() {
  return configureStore({
    reducer: { session: sessionSlice.reducer, [portalApi.reducerPath]: portalApi.reducer },
    middleware: (getDefault) => getDefault().concat(portalApi.middleware),
  });
}

export const store = createPortalStore();

// The session client owns the tokens; the store only mirrors them and drops its caches when the session ends.
http.onTokensRefreshed((tokens) => store.dispatch(tokenRefreshed(tokens.accessToken)));
http.onSessionEnd(() => {
  store.dispatch(portalApi.util.resetApiState());
  store.dispatch(loggedOut());
});

export type PortalStore = ReturnType<typeof createPortalStore>;
export type RootState = ReturnType<PortalStore['getState']>;
export type AppDispatch = PortalStore['dispatch'];
