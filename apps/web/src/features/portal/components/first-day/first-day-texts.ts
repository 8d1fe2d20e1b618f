import { FIRST_REPORT_HOURS, type SuiteStatusResponse } from '@fullstop/contracts';
import { formatDate } from '@/lib/format-date.ts';

/** What a client without a current suite reads: where its suite stands, and when its first report is due. */
export interface FirstDayTexts {
  title: string;
  preparing: string;
  due: string;
  late: boolean;
}

/** The card's texts for this status, read at `now`. */
export function firstDayTexts(status: SuiteStatusResponse, now = Date.now()): FirstDayTexts {
  const { proposal } = status;
  const who = proposal?.proposedBy ?? 'Your QA team';
  const tests = proposal ? `${proposal.tests} ${proposal.tests === 1 ? 'test' : 'tests'}` : '';
  const preparing = proposal
    ? `${who} proposed a first suite of ${tests} on ${formatDate(proposal.proposedAt)}. It is being reviewed, and its tests appear here as soon as it is approved.`
    : 'Your QA team is writing the tests for your site. They appear here as soon as the suite is ready.';
  const late = Date.parse(status.firstReportDue) <= now;
  const due = late
    ? `Your first report was due by ${formatDate(status.firstReportDue)} (${FIRST_REPORT_HOURS} hours after you signed up on ${formatDate(status.signedAt)}), and it is late. Ask us where it stands.`
    : `Your first report is due by ${formatDate(status.firstReportDue)}: we start within ${FIRST_REPORT_HOURS} hours of your sign-up on ${formatDate(status.signedAt)}.`;
  return { title: 'Your test suite is being prepared', preparing, due, late };
}
