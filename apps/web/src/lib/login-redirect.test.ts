import { describe, expect, it } from 'vitest';
import { loginUrl, safeNext } from './login-redirect.ts';

describe('the page to return to after logging in', () => {
  it('accepts portal paths with their query', () => {
    expect(safeNext('/dashboard')).toBe('/dashboard');
    expect(safeNext('/dashboard/tests')).toBe('/dashboard/tests');
    expect(safeNext('/dashboard/history?page=2')).toBe('/dashboard/history?page=2');
  });

  it('refuses anything that could leave the portal or the site', () => {
    for (const bad of ['https://evil.test/dashboard', '//evil.test/dashboard', '/\\evil.test', '/pricing', '/dashboardx', '/dashboard/../pricing', 'dashboard', '', null, undefined]) {
      expect(safeNext(bad), String(bad)).toBeNull();
    }
  });

  it('builds /login with the page and the session-ended note', () => {
    expect(loginUrl()).toBe('/login');
    expect(loginUrl({ next: '/dashboard' })).toBe('/login');
    expect(loginUrl({ next: '/dashboard/tests', sessionEnded: true })).toBe('/login?session=ended&next=%2Fdashboard%2Ftests');
    expect(loginUrl({ next: 'https://evil.test' })).toBe('/login');
  });
});
