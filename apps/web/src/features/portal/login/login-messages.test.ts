import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError } from '@/lib/http-client.ts';
import { loginErrorMessage, validateLogin } from './login-messages.ts';

describe('login messages', () => {
  it('turns "Invalid credentials" into the friendly text and keeps other server messages', () => {
    expect(loginErrorMessage(new HttpError(401, 'Invalid credentials', ''))).toBe('Login failed. Please check your email and password.');
    expect(loginErrorMessage(new HttpError(429, 'Slow down', ''))).toBe('Slow down');
  });

  it('falls back to the generic text for network errors and answers without a message', () => {
    expect(loginErrorMessage(new NetworkError())).toBe('An error occurred. Please try again later.');
    expect(loginErrorMessage(new HttpError(502, null, '<html>Bad gateway</html>'))).toBe('An error occurred. Please try again later.');
  });

  it('validates email format and a present password', () => {
    expect(validateLogin('', '')).toEqual({ email: 'Email is required.', password: 'Password is required.' });
    expect(validateLogin('a@b', 'x')).toEqual({ email: 'Please enter a valid email address.' });
    expect(validateLogin('a@b.co', 'x')).toEqual({});
  });
});
