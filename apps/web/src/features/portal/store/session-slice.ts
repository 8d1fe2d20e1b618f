import type { UserData } from '@fullstop/contracts';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { http } from '@/lib/http-client.ts';

/** What the pages read about the session; the tokens stay with the HTTP client. */
export interface SessionState {
  /** The signed-in user: the dashboard greets them and the client pages take the client id from here. */
  userData: UserData | null;
  /** Failed logins in this visit; the captcha appears from the third on. */
  failedLogins: number;
}

export function initialSession(): SessionState {
  return { userData: http.userData(), failedLogins: 0 };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSession,
  reducers: {
    loggedIn(state, action: PayloadAction<UserData>) {
      state.userData = action.payload;
      state.failedLogins = 0;
    },
    loginFailed(state) {
      state.failedLogins += 1;
    },
    loggedOut(state) {
      state.userData = null;
    },
  },
});

export const { loggedIn, loginFailed, loggedOut } = sessionSlice.actions;
