import { z } from 'zod';
import { safeTextCheck } from './text.ts';

/** A client user's role in their team (team.ts): owners manage it, members work, viewers only read. */
export const teamRole = z.enum(['owner', 'member', 'viewer'], { error: 'role must be one of owner, member, viewer' });
export type TeamRole = z.infer<typeof teamRole>;

/** The user data the portal keeps after login (spec section 3: id, username, other fields). */
export const userData = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(['client', 'operator']),
  clientId: z.string().nullable(),
  /** Null for operators. The portal hides what the role may not do; the API refuses it anyway. */
  teamRole: teamRole.nullable(),
});
export type UserData = z.infer<typeof userData>;

/** A string that must be there and not empty (`<name> is required`), at most `max` characters (`<name> is too long`). */
const requiredString = (name: string, max: number) =>
  z.string({ error: `${name} is required` }).min(1, { error: `${name} is required` }).max(max, { error: `${name} is too long` });

const email = z.email({ error: 'email must be a valid email address' }).max(254, { error: 'email must be at most 254 characters' });

export const loginRequest = z.object({
  email,
  password: requiredString('password', 1024).refine(...safeTextCheck('password')),
});
export type LoginRequest = z.infer<typeof loginRequest>;


export const refreshRequest = z.object({
  token: requiredString('token', 200).refine(...safeTextCheck('token')),
});
export type RefreshRequest = z.infer<typeof refreshRequest>;

export const refreshResponse = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
});
export type RefreshResponse = z.infer<typeof refreshResponse>;

export const loginResponse = refreshResponse.extend({ userData });
export type LoginResponse = z.infer<typeof loginResponse>;

/** Logout ends the session of this refresh token on the server (its refresh and access tokens). */
export const logoutRequest = refreshRequest;
export type LogoutRequest = RefreshRequest;

export const forgotPasswordRequest = z.object({
  email,
});
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

export const resetPasswordRequest = z.object({
  token: z.string({ error: 'token is required' }).min(1, { error: 'token is required' }).max(200).refine(...safeTextCheck('token')),
  password: z
    .string({ error: 'password is required' })
    .min(10, { error: 'password must be at least 10 characters' })
    .max(256, { error: 'password must be at most 256 characters' })
    .refine(...safeTextCheck('password')),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** A signed-in user's password change: every session ends, the caller gets a fresh pair in a new one. */
export const changePasswordRequest = z.object({
  currentPassword: requiredString('currentPassword', 1024),
  newPassword: resetPasswordRequest.shape.password,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** The server's exact words for a wrong email or password; the portal maps it to its own text (spec section 8). */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid credentials';

/** The answer to a password-reset request, the same whether or not the account exists (spec section 8). */
export const FORGOT_PASSWORD_MESSAGE = 'If account exists, you should have received an email with your password!';

export const PASSWORD_RESET_MESSAGE = 'Your password has been changed. You can now log in with it.';

export const LOGOUT_MESSAGE = 'Logged out';
