import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithStore, reply, serveApi } from '../components/test-api.tsx';
import { CiPanel } from './ci-panel.tsx';

const badge = (token: string) => ({
  url: `https://qa.example.test/badge/${token}.svg`,
  markdown: `[![Fullstop QA](https://qa.example.test/badge/${token}.svg)](https://qa.example.test)`,
  state: 'passing',
  createdAt: '2026-11-23T10:00:00.000Z',
});
serveApi(({ url, method }) => {
  if (url.endsWith('/clientProfile/badge') && method === 'GET') return reply(200, badge('old'));
  if (url.endsWith('/clientProfile/badge/regenerate') && method === 'POST') return reply(200, badge('new'));
  return reply(404, { message: 'not found' });
});

describe('the CI and badge panel', () => {
  it('shows both CI jobs with the key as a secret, the badge and its Markdown; Regenerate asks first', async () => {
    const user = userEvent.setup();
    renderWithStore(<CiPanel />);
    const panel = screen.getByRole('heading', { name: 'CI and badge' }).closest('section')!;
    expect(within(panel).getByText(/secrets\.FULLSTOP_API_KEY/)).toBeTruthy();
    expect(within(panel).getByText(/reports:\s+junit: fullstop-results\.xml/)).toBeTruthy();
    const img = (await within(panel).findByRole('img', { name: 'Fullstop QA: passing' })) as HTMLImageElement;
    // The preview loads from the portal's own origin (its CSP allows no other); the Markdown keeps the published address.
    expect(img.src).toBe(`${window.location.origin}/badge/old.svg`);
    expect(within(panel).getByText(/\[!\[Fullstop QA\]\(https:\/\/qa\.example\.test\/badge\/old\.svg\)\]/)).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Regenerate badge address' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Regenerate the badge address?' });
    await user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    await vi.waitFor(() => expect(((within(panel).getByRole('img') as HTMLImageElement).src)).toBe(`${window.location.origin}/badge/new.svg`));
  });
});
