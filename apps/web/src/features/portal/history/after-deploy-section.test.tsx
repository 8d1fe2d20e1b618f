import { type AfterDeployReport, afterDeployWords } from '@fullstop/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPortalStore } from '../store/store.ts';
import { AfterDeploySection } from './after-deploy-section.tsx';

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const endedFacts: Omit<AfterDeployReport, 'words'> = {
  runId: 'run-1',
  runStatus: 'failed',
  healed: [{ testName: 'Contact form', cases: 1 }],
  needPerson: [{ testName: 'Checkout', status: 'failed', error: 'expected "Paid" to be visible\nat checkout.spec.ts:12' }],
  recrawl: {
    status: 'done',
    message: 'The re-crawl proposes suite version 4 for our QA team to review. Adds 2 tests for /careers; keeps 3 tests as they are.',
    version: 4,
    added: [
      { name: 'Page Careers (careers) loads cleanly', page: '/careers' },
      { name: 'Page Careers (careers) is accessible', page: '/careers' },
    ],
    removed: [{ name: 'Page Old (old) loads cleanly', page: '/old', evidence: '/old answered 404 twice, at 12:01:03 and 12:01:08 UTC' }],
    kept: 3,
  },
};
const ended: AfterDeployReport = { ...endedFacts, words: afterDeployWords(endedFacts) };
const going: Omit<AfterDeployReport, 'words'> = {
  ...endedFacts,
  runStatus: 'running',
  healed: [],
  needPerson: [],
  recrawl: { status: 'waiting', message: 'The site is crawled again once the run has ended.', version: null, added: [], removed: [], kept: null },
};

function renderSection() {
  render(
    <Provider store={createPortalStore()}>
      <AfterDeploySection runId="run-1" />
    </Provider>,
  );
}

describe('After the deploy, on a deploy’s run page (issue 42)', () => {
  it('says what healed, what needs a person (with its first error line), and what the re-crawl adds and removes', async () => {
    const fetch = vi.fn(async (_url: string) => reply(ended));
    vi.stubGlobal('fetch', fetch);
    renderSection();
    const section = await screen.findByRole('region', { name: 'After the deploy' });
    expect(section.textContent).toContain('1 test (Contact form) found an element the site changed');
    expect(section.textContent).toContain('1 test needs a person: Checkout.');
    expect(screen.getByRole('list', { name: 'Tests that need a person' }).textContent).toBe('Checkoutexpected "Paid" to be visible');
    const proposed = screen.getByRole('list', { name: 'What the re-crawl proposes' });
    expect([...proposed.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '/careers: adds 2 tests',
      '/old: removes Page Old (old) loads cleanly (/old answered 404 twice, at 12:01:03 and 12:01:08 UTC)',
    ]);
    expect(String(fetch.mock.calls[0]![0])).toMatch(/\/test\/runs\/run-1\/after-deploy$/);
  });

  it('while the run goes on, says the re-crawl follows its end, and lists nothing yet', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => reply({ ...going, words: afterDeployWords(going) })));
    renderSection();
    const section = await screen.findByRole('region', { name: 'After the deploy' });
    expect(section.textContent).toContain('The run is not over yet');
    expect(section.textContent).toContain('The site is crawled again once the run has ended.');
    expect(section.textContent).not.toMatch(/tests? needs? a person:|No failure/);
    expect(screen.queryByRole('list')).toBeNull();
  });
});
