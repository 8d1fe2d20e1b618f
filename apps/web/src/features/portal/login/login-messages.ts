import { INVALID_CREDENTIALS_MESSAGE } from '@fullstop/contracts';
import { describeError } from '@/lib/http-client.ts';

/** The spec's exact texts (sections 5 and 8). */
export const LOGIN_TEXT = {
  success: 'Login successful!',
  invalidCredentials: 'Login failed. Please check your email and password.',
  generic: 'An error occurred. Please try again later.',
  captchaMismatch: 'CAPTCHA is incorrect. Please try again.',
  emailMissing: 'Please enter your email.',
  resetSent: 'If account exists, you should have received an email with your password!',
} as const;

/** Failed logins after which the captcha appears and is required. */
export const CAPTCHA_AFTER_FAILURES = 3;

/** "Invalid credentials" gets the friendly text, any other server message is shown as is, anything else is generic. */
export function loginErrorMessage(error: unknown): string {
  const text = describeError(error, LOGIN_TEXT.generic);
  return text === INVALID_CREDENTIALS_MESSAGE ? LOGIN_TEXT.invalidCredentials : text;
}

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface LoginFieldErrors {
  email?: string;
  password?: string;
}

export function validateLogin(email: string, password: string): LoginFieldErrors {
  const errors: LoginFieldErrors = {};
  if (!email.trim()) errors.email = 'Email is required.';
  else if (!EMAIL_FORMAT.test(email.trim())) errors.email = 'Please enter a valid email address.';
  if (!password) errors.password = 'Password is required.';
  return errors;
}
