import type { SuiteStatusResponse } from '@fullstop/contracts';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format-date.ts';
import { renderWithStore, reply, serveApi } from '../test-api.tsx';
import { ASK_PATH, FirstDayCard } from './first-day-card.tsx';
import { firstDayTexts } from './first-day-texts.ts';

// Signed up an hour ago, whatever day the test runs: a fixed date turns the card "late" once the day has passed.
const hour = 3_600_000;
const signedMs = Math.floor(Date.now() / 1000) * 1000 - hour;
const signedAt = new Date(signedMs).toISOString();
const firstReportDue = new Date(signedMs + 48 * hour).toISOString();
const waiting: SuiteStatusResponse = { current: false, signedAt, firstReportDue, proposal: null };
let status: SuiteStatusResponse = waiting;

describe('a client’s first day', () => {
  serveApi(({ url }) => (url.endsWith('/test/suite-status') ? reply(200, status) : reply(404, { message: 'not here' })));
  const show = () =>
    renderWithStore(
      <MemoryRouter>
        <FirstDayCard otherwise={<p>No runs yet.</p>} />
      </MemoryRouter>,
    );

  it('says the suite is being prepared, when the first report is due, and where to ask', async () => {
    status = waiting;
    show();
    expect(await screen.findByRole('heading', { name: 'Your test suite is being prepared' })).toBeTruthy();
    expect(screen.getByText(/Your QA team is writing the tests for your site/)).toBeTruthy();
    expect(screen.getByText(`Your first report is due by ${formatDate(firstReportDue)}: we start within 48 hours of your sign-up on ${formatDate(signedAt)}.`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask your QA team' }).getAttribute('href')).toBe(ASK_PATH);
  });

  it('names who proposed the suite, and when', async () => {
    status = { ...waiting, proposal: { version: 1, proposedBy: 'Dana', proposedAt: '2026-11-28T10:00:00.000Z', tests: 12 } };
    show();
    expect(await screen.findByText(`Dana proposed a first suite of 12 tests on ${formatDate('2026-11-28T10:00:00.000Z')}. It is being reviewed, and its tests appear here as soon as it is approved.`)).toBeTruthy();
  });

  it('steps aside once a suite is current', async () => {
    status = { ...waiting, current: true };
    show();
    expect(await screen.findByText('No runs yet.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Your test suite is being prepared' })).toBeNull();
  });

  it('owns up when the promised time has passed', () => {
    const texts = firstDayTexts(waiting, signedMs + 49 * hour);
    expect(texts.late).toBe(true);
    expect(texts.due).toBe(`Your first report was due by ${formatDate(firstReportDue)} (48 hours after you signed up on ${formatDate(signedAt)}), and it is late. Ask us where it stands.`);
  });
});
