import type { LoginResponse, UserData } from '@fullstop/contracts';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { getAccessToken, getUserData, isAuthenticated } from '@/lib/auth-storage.ts';

export interface SessionState {
  isAuthenticated: boolean;
  accessToken: string | null;
  userData: UserData | null;
  /** Failed logins in this visit; the captcha appears from the third on. */
  failedLogins: number;
}

export function initialSession(): SessionState {
  return { isAuthenticated: isAuthenticated(), accessToken: getAccessToken(), userData: getUserData(), failedLogins: 0 };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSession,
  reducers: {
    loggedIn(state, action: PayloadAction<LoginResponse>) {
      state.isAuthenticated = true;
      state.accessToken = action.payload.accessToken;
      state.userData = action.payload.userData;
      state.failedLogins = 0;
    },
    loginFailed(state) {
      state.failedLogins += 1;
    },
    tokenRefreshed(state, action: PayloadAction<string>) {
      state.accessToken = action.payload;
    },
    loggedOut(state) {
      state.isAuthenticated = false;
      state.accessToken = null;
      state.userData = null;
    },
  },
});

export const { loggedIn, loginFailed, tokenRefreshed, loggedOut } = sessionSlice.actions;
