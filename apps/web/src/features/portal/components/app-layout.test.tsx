import { cleanup, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createPortalStore } from '../store/store.ts';
import { AppLayout } from './app-layout.tsx';

afterEach(cleanup);

const PAGES = [{ to: '/dashboard/insights', label: 'Insights', icon: 'M0 0' }];

describe('the application shell', () => {
  it('has one Logout, at the end of the side menu, not a second one in the header', () => {
    const router = createMemoryRouter(
      [{ path: '/dashboard', element: <AppLayout pages={PAGES} label="Dashboard" home="/dashboard" account="/dashboard/account" title="Dashboard" />, children: [{ index: true, element: <p>Home</p> }] }],
      { initialEntries: ['/dashboard'] },
    );
    render(
      <Provider store={createPortalStore()}>
        <RouterProvider router={router} />
      </Provider>,
    );
    expect(screen.getAllByRole('button', { name: 'Logout' })).toHaveLength(1);
    expect(within(screen.getByRole('navigation', { name: 'Dashboard' })).getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(within(screen.getByRole('banner')).queryByRole('button', { name: 'Logout' })).toBeNull();
  });
});
