import type { HealingProposal, HealingProposalHeal } from '@fullstop/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type ApiCall, renderSection, reply, serveApi } from '../../components/test-api.tsx';
import { HealingProposals } from './healing-proposals.tsx';

const HEAL: HealingProposalHeal = {
  site: { file: 'helpers.ts', line: 7, column: 63, locator: "getByRole('button', { name: 'Send', exact: true })" },
  oldLocator: "page.getByRole('button', { name: 'Send', exact: true })",
  newLocator: "page.getByRole('button', { name: 'Send message', exact: true })",
  score: 0.83,
  runnerUp: 0.22,
  change: 'the button\'s label changed from "Send" to "Send message"; its id changed from "send" to "send-message"',
  runTestId: 'rt-1',
  attempt: 1,
  testName: 'Contact form',
  caseName: 'contact.spec.ts › sends a message',
  patched: true,
  why: null,
  key: 'k1',
  screenshotUrl: '/evidence/file/token-1',
};

const WAITING: HealingProposal = {
  id: 'p1',
  clientId: 'c1',
  runId: '3f2a9c1b-0000-4000-8000-000000000001',
  runTestId: 'rt-1',
  fromVersion: 1,
  proposedVersion: 2,
  status: 'proposed',
  heals: [HEAL],
  createdAt: '2026-05-01T10:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  note: null,
};

const REJECTED: HealingProposal = {
  ...WAITING,
  id: 'p0',
  runId: 'aaaabbbb-0000-4000-8000-000000000002',
  proposedVersion: null,
  status: 'rejected',
  heals: [{ ...HEAL, key: 'k0', patched: false, why: 'line 7 of helpers.ts does not hold the old locator as the engine printed it', screenshotUrl: null }],
  decidedBy: 'ops-anna',
  decidedAt: '2026-04-30T10:00:00.000Z',
  note: 'the label is a bug of the site',
};

const DIFF = {
  from: 1,
  to: 2,
  unchanged: 2,
  files: [
    {
      path: 'helpers.ts',
      status: 'changed',
      binary: false,
      truncated: false,
      patch: `Index: helpers.ts\n===\n--- helpers.ts\n+++ helpers.ts\n@@ -7,1 +7,1 @@\n-  await ${HEAL.oldLocator}.click();\n+  await ${HEAL.newLocator}.click();\n`,
    },
  ],
};

const posts: { url: string; body: string }[] = [];
let proposals: HealingProposal[] = [WAITING, REJECTED];

serveApi(async (call: ApiCall) => {
  if (call.method === 'POST') {
    posts.push({ url: call.url, body: await call.body() });
    const accepted = call.url.endsWith('/accept');
    const decided = { ...WAITING, status: accepted ? 'accepted' : 'rejected', decidedBy: 'ops-anna', decidedAt: '2026-05-01T11:00:00.000Z' } as const;
    proposals = [decided, REJECTED];
    return reply(200, { message: accepted ? 'Suite version 2 is now current: the healed locators of run 3f2a9c1b run from now on' : 'Rejected: these heals are not proposed again', proposal: decided });
  }
  if (call.url.includes('/suites/diff?from=1&to=2')) return reply(200, DIFF);
  if (call.url.endsWith('/operator/clients/c1/healing/proposals')) return reply(200, { proposals });
  return reply(404, { message: 'not found' });
});

const render = () => renderSection(<HealingProposals clientId="c1" />, 'Healed locators (1 waiting)');

describe('the console’s healed locators', () => {
  it('shows each heal in words, its locators, its screenshot and the change to the spec', async () => {
    proposals = [WAITING, REJECTED];
    const { panel } = await render();
    const waiting = within(panel).getByRole('article', { name: /Run 3f2a9c1b: 1 healed locator/ });
    expect(within(waiting).getByText('Healed: The button\'s label changed from "Send" to "Send message"; its id changed from "send" to "send-message" (helpers.ts, line 7)')).toBeTruthy();
    expect(within(waiting).getByText(HEAL.newLocator)).toBeTruthy();
    expect(within(waiting).getByRole('img').getAttribute('src')).toBe('/evidence/file/token-1');
    const patch = await within(waiting).findByLabelText('The change to helpers.ts');
    expect(patch.textContent).toContain(`+  await ${HEAL.newLocator}.click();`);
    expect(patch.textContent).not.toContain('+++ helpers.ts');
    expect(within(waiting).getByRole('button', { name: 'Accept: make version 2 current' })).toBeTruthy();

    // A decided one says who decided and why, offers no decision, and a heal left out says why.
    const rejected = within(panel).getByRole('article', { name: /Run aaaabbbb/ });
    expect(within(rejected).getByText(/Rejected by ops-anna on .*: “the label is a bug of the site”/)).toBeTruthy();
    expect(within(rejected).getByText(/Not in the proposed version: line 7 of helpers.ts does not hold the old locator/)).toBeTruthy();
    expect(within(rejected).queryByRole('button', { name: /Accept|Reject/ })).toBeNull();
  });

  it('accepts: the version becomes current and the proposal says so', async () => {
    proposals = [WAITING, REJECTED];
    posts.length = 0;
    const { user, panel } = await render();
    await user.click(within(panel).getByRole('button', { name: 'Accept: make version 2 current' }));
    expect(await screen.findByText(/Suite version 2 is now current/)).toBeTruthy();
    expect(posts.map((p) => p.url)).toEqual([expect.stringMatching(/\/operator\/clients\/c1\/healing\/proposals\/p1\/accept$/)]);
    expect(await within(panel).findByText(/Accepted by ops-anna/)).toBeTruthy();
  });

  it('rejects only with a note, and sends it', async () => {
    proposals = [WAITING, REJECTED];
    posts.length = 0;
    const { user, panel } = await render();
    const waiting = within(panel).getByRole('article', { name: /Run 3f2a9c1b/ });
    await user.click(within(waiting).getByRole('button', { name: 'Reject' }));
    expect(within(waiting).getByRole('alert').textContent).toMatch(/Say why the heal is rejected/);
    expect(posts).toEqual([]);
    await user.type(within(waiting).getByLabelText(/Why reject/), 'the old label comes back next week');
    await user.click(within(waiting).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(/Rejected: these heals are not proposed again/)).toBeTruthy();
    expect(posts).toEqual([{ url: expect.stringMatching(/\/healing\/proposals\/p1\/reject$/), body: JSON.stringify({ note: 'the old label comes back next week' }) }]);
  });
});
