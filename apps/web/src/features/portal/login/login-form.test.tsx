import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithStore, reply } from '../components/test-api.tsx';
import { LoginForm } from './login-form.tsx';

const session = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  userData: { id: 'u1', username: 'Ada', email: 'ada@example.test', role: 'client', clientId: 'c1', teamRole: 'owner' },
};

function renderLogin() {
  // A declarative router: jsdom's AbortSignal is not the one a data router's Request expects.
  renderWithStore(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginForm onForgotPassword={() => {}} />} />
        <Route path="/dashboard" element={<p>Dashboard reached</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  localStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function submit(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  const emailField = screen.getByLabelText('Email');
  const passwordField = screen.getByLabelText('Password');
  await user.clear(emailField);
  if (email) await user.type(emailField, email);
  await user.clear(passwordField);
  if (password) await user.type(passwordField, password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('the login form', () => {
  it('requires a well-formed email and a password before calling the server', async () => {
    const user = userEvent.setup();
    renderLogin();
    await submit(user, 'not-an-email', '');
    expect(screen.getByText('Please enter a valid email address.')).toBeTruthy();
    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('maps the server messages to the spec texts', async () => {
    const user = userEvent.setup();
    renderLogin();
    fetchMock.mockResolvedValueOnce(reply(401, { message: 'Invalid credentials' }));
    await submit(user, 'ada@example.test', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed. Please check your email and password.');

    fetchMock.mockResolvedValueOnce(reply(429, { message: 'Too many attempts: try again in 5 minutes' }));
    await submit(user, 'ada@example.test', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts: try again in 5 minutes');

    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await submit(user, 'ada@example.test', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred. Please try again later.');
  });

  it('requires the captcha from the third failure on, then logs in and stores the session', async () => {
    const user = userEvent.setup();
    renderLogin();
    fetchMock.mockResolvedValue(reply(401, { message: 'Invalid credentials' }));
    for (let i = 0; i < 3; i++) {
      expect(screen.queryByLabelText('Enter the code shown')).toBeNull();
      await submit(user, 'ada@example.test', 'wrong');
      await screen.findByRole('alert');
    }
    const captcha = screen.getByLabelText('Enter the code shown');
    fetchMock.mockClear();

    await user.type(captcha, 'nope00');
    await submit(user, 'ada@example.test', 'right-password');
    expect(screen.getByRole('alert').textContent).toBe('CAPTCHA is incorrect. Please try again.');
    expect(fetchMock).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(reply(200, session));
    await user.type(captcha, screen.getByTestId('captcha-code').textContent ?? '');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('Login successful!');
    expect(localStorage.getItem('isAuthenticated')).toBe('true');
    expect(localStorage.getItem('accessToken')).toBe('access-1');
    expect(JSON.parse(localStorage.getItem('userData') ?? '{}')).toMatchObject({ username: 'Ada' });

    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Dashboard reached')).toBeTruthy();
  });
});
