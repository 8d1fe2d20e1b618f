import { describe, expect, it } from 'vitest';
import { renderPage, titleFor } from './prerender.tsx';

describe('the prerender of /login', () => {
  it('is the User Login form a visitor without a session sees, not usable until hydrated', async () => {
    const html = await renderPage('/login');
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(doc.querySelector('h1')?.textContent).toBe('User Login');
    const email = doc.querySelector<HTMLInputElement>('#login-email');
    const password = doc.querySelector<HTMLInputElement>('#login-password');
    expect(email?.getAttribute('autocomplete')).toBe('username');
    expect(password?.getAttribute('autocomplete')).toBe('current-password');
    // Typed into before hydration, the fields would lose the text; sent, the form would be a GET with the password.
    expect(email?.readOnly && password?.readOnly).toBe(true);
    expect(doc.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled).toBe(true);
    expect(doc.querySelector('a[href="/contact-us#form-section"]')?.textContent).toBe('Register');
    expect(doc.querySelector('.cookie-consent')).toBeNull();
  });

  it('carries the tab title the page sets', () => {
    expect(titleFor('/login')).toBe('User Login · Fullstop QA');
  });
});
