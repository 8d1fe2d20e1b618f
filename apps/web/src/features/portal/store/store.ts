import { configureStore } from '@reduxjs/toolkit';
import { http } from '@/lib/http-client.ts';
import { portalApi } from './portal-api.ts';
import { loggedOut, sessionSlice } from './session-slice.ts';

export function createPortalStore() {
  return configureStore({
    reducer: { session: sessionSlice.reducer, [portalApi.reducerPath]: portalApi.reducer },
    middleware: (getDefault) => getDefault().concat(portalApi.middleware),
  });
}

export const store = createPortalStore();

// The HTTP client owns the session; the store drops its caches and the user's data when the session ends.
http.onSessionEnd(() => {
  store.dispatch(portalApi.util.resetApiState());
  store.dispatch(loggedOut());
});

export type PortalStore = ReturnType<typeof createPortalStore>;
export type RootState = ReturnType<PortalStore['getState']>;
export type AppDispatch = PortalStore['dispatch'];
