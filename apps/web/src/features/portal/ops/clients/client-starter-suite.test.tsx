import type { SuiteProposal } from '@fullstop/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { ClientStarterSuite } from './client-starter-suite.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The card of client c1, in the console's store and router; `hasSuite`: whether c1 has a current suite. */
function renderCard(hasSuite = true) {
  render(
    <Provider store={createPortalStore()}>
      <MemoryRouter>
        <ClientStarterSuite clientId="c1" hasSuite={hasSuite} />
      </MemoryRouter>
    </Provider>,
  );
}

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

const EVIDENCE = '/old-pricing answered 404 twice, at 12:01:03 and 12:01:08 UTC';
/** A re-crawl that ended: version 3, a patch of version 2. */
const patched: SuiteProposal = {
  id: '0b6a6f5e-6c53-4d1a-9a43-2f1f3f0c0b11',
  clientId: 'c1',
  status: 'done',
  maxPages: 25,
  makeCurrent: false,
  startedAt: '2026-11-29T12:00:00.000Z',
  finishedAt: '2026-11-29T12:01:10.000Z',
  progress: null,
  message: 'Suite version 3 proposed as a patch of version 2 from a crawl of 12 page(s): 27 tests (the current version still runs).',
  version: 3,
  current: false,
  tests: [],
  leftOut: [],
  loggedIn: false,
  notes: ['The survey sees a page differently from when its tests were proposed; the tests are kept as they are: /pricing: console errors on load ("Stripe failed to load").'],
  error: null,
  patch: {
    base: 2,
    added: [
      { name: 'Page Careers (careers) loads cleanly', kind: 'browser', page: '/careers' },
      { name: 'Page Careers (careers) is accessible', kind: 'accessibility', page: '/careers' },
    ],
    removed: [{ name: 'Page Old pricing (old-pricing) loads cleanly', kind: 'browser', page: '/old-pricing', evidence: EVIDENCE }],
    kept: 25,
  },
};

const version = (v: number, current: boolean) => ({ version: v, fileCount: 30, tests: 26, importedBy: 'ops@fullstop.test', createdAt: '2026-11-29T12:00:00.000Z', current });

describe('the console’s starter suite card (issue 42)', () => {
  it('shows a re-crawl as a patch: what it adds and removes and why, its diff with the current version, and a trial run', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        asked.push(`${init?.method ?? 'GET'} ${url}`);
        if (url === '/operator/clients/c1/suites/propose') return json(patched);
        if (url === `/operator/clients/c1/suites/proposals/${patched.id}`) return json(patched);
        if (url === '/operator/clients/c1/suites') return json({ versions: [version(3, false), version(2, true), version(1, false)] });
        if (url === '/operator/clients/c1/suites/diff?from=2&to=3') {
          return json({ from: 2, to: 3, unchanged: 28, files: [{ path: 'specs/pages/careers.spec.ts', status: 'added', binary: false, truncated: false, patch: '@@ -0,0 +1 @@\n+test\n' }] });
        }
        if (url === '/operator/clients/c1/suites/3/try') return json({ message: 'queued', runId: 'r9', version: 3 });
        throw new Error(`unexpected ${url}`);
      }),
    );
    renderCard();
    const user = userEvent.setup();
    // A client with a current suite is offered additions, not a starter suite.
    expect(screen.queryByRole('button', { name: 'Propose a starter suite' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Propose additions from a new crawl' }));

    // One sentence, then each part.
    expect((await screen.findByText(/^Adds 2 tests for \/careers/)).textContent).toBe(
      `Adds 2 tests for /careers, removes 'Page Old pricing (old-pricing) loads cleanly' (${EVIDENCE}); keeps 25 tests as they are.`,
    );
    expect(screen.getByText(/is version 2 with these changes/).textContent).toContain('Version 3 (not current) is version 2 with these changes.');
    const added = screen.getByRole('region', { name: 'Adds 2 tests' });
    expect(within(added).getByRole('listitem').textContent).toBe('/careers: Page Careers (careers) loads cleanly, Page Careers (careers) is accessible');
    const removed = screen.getByRole('region', { name: 'Removes 1 test' });
    expect(within(removed).getByRole('listitem').textContent).toBe(`Page Old pricing (old-pricing) loads cleanly: ${EVIDENCE}`);
    expect(screen.getByText(/sees a page differently/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Review version 3 on the Suites page' }).getAttribute('href')).toBe('/ops/suites?clientId=c1&version=3');

    // The diff between the current version and the patch, on the card.
    await user.click(screen.getByRole('button', { name: 'Compare with version 2' }));
    expect(await screen.findByText('specs/pages/careers.spec.ts')).toBeTruthy();
    expect(screen.getByText('1 changed, 28 unchanged.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide the changes' }).getAttribute('aria-expanded')).toBe('true');

    // And its trial run, the current version unchanged.
    await user.click(screen.getByRole('button', { name: 'Try version 3 in a run' }));
    expect((await screen.findByText(/is running \(run r9\)/)).textContent).toContain('Version 3 is running (run r9); the current version is unchanged.');
    expect(screen.getByRole('link', { name: 'See the run' }).getAttribute('href')).toBe('/ops/runs?clientId=c1');
    expect(asked).toContain('POST /operator/clients/c1/suites/3/try');
  });

  it('says a re-crawl with nothing to change wrote no version, and offers nothing to review', async () => {
    const nothing: SuiteProposal = {
      ...patched,
      version: null,
      patch: { base: 2, added: [], removed: [], kept: 25 },
      message: 'Nothing to add or remove: keeps 25 tests as they are. No version was written: version 2 stays as it is (a crawl of 12 page(s)).',
    };
    vi.stubGlobal('fetch', vi.fn(async () => json(nothing)));
    renderCard();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Propose additions from a new crawl' }));
    expect(await screen.findByText(nothing.message)).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Try version/ })).toBeNull();
  });

  it('shows a first proposal as before: the whole suite, with a link to review it', async () => {
    const first: SuiteProposal = { ...patched, patch: null, message: 'Suite version 1 proposed from 12 page(s): 26 tests (the current version still runs)', version: 1, notes: [] };
    vi.stubGlobal('fetch', vi.fn(async () => json(first)));
    renderCard(false);
    expect(screen.queryByRole('button', { name: 'Propose additions from a new crawl' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Propose a starter suite' }));
    expect(await screen.findByText(first.message)).toBeTruthy();
    expect(screen.queryByText(/with these changes/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Review version 1' }).getAttribute('href')).toBe('/ops/suites?clientId=c1&version=1');
  });
});
