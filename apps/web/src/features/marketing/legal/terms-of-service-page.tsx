import { Link } from 'react-router';
import { RETENTION_DEFAULT_DAYS } from '@fullstop/contracts';
import { paths } from '@/config/paths.ts';
import { LegalPage, type LegalSection } from './legal-page.tsx';

const SECTIONS: LegalSection[] = [
  {
    heading: 'The agreement',
    body: (
      <p>
        These terms govern the use of the Fullstop QA website, client portal, API and testing service (the
        &quot;Service&quot;). By ordering the Service or logging in to the portal, the client (&quot;you&quot;) accepts them. A
        signed order or statement of work takes precedence over these terms where they differ.
      </p>
    ),
  },
  {
    heading: 'The Service',
    body: (
      <p>
        We write, maintain and run tests of the web and mobile applications you name, for the features agreed in your
        order. Each feature test includes 3 testing scenarios. You may start test runs at any time from the portal or
        through the API; runs are unlimited within fair use that does not harm the systems under test or ours.
      </p>
    ),
  },
  {
    heading: 'Fees and commitment',
    body: (
      <p>
        The fee is $200 per feature per month, billed monthly in advance, plus any taxes. The commitment is month to
        month: either party may end the Service, or remove features, with effect from the end of the current month.
        Fees already paid are not refunded for the month in progress.
      </p>
    ),
  },
  {
    heading: 'Your responsibilities',
    body: (
      <ul>
        <li>Supply only data meant for public release: test accounts, sample content and builds. Never supply production personal data, real payment cards or secrets not dedicated to testing.</li>
        <li>Make sure you are entitled to have the applications and environments you name tested, including any hosting or third-party services they use.</li>
        <li>Keep your portal credentials and API key confidential, and tell us at once if you suspect misuse; you can generate a new key in the portal at any time.</li>
        <li>Tell us about planned changes that affect the tests, so we can update them in time.</li>
      </ul>
    ),
  },
  {
    heading: 'Test data',
    body: (
      <p>
        We use your material only to provide the Service. Test data is deleted after testing, and in any case within 30
        days after the Service ends, as described in our <Link to={paths.privacyPolicy}>Privacy Policy</Link>. Runs, their
        reports and uploaded builds are deleted after {RETENTION_DEFAULT_DAYS} days unless we agree another period with you;
        each test&apos;s latest run stays available in the portal while your account is active.
      </p>
    ),
  },
  {
    heading: 'Satisfaction guarantee',
    body: (
      <p>
        If an issue within the agreed scope reaches production after a deployment we tested, tell us within 30 days and
        we will retest it, and fix the test that missed it, free of charge.
      </p>
    ),
  },
  {
    heading: 'Intellectual property',
    body: (
      <p>
        Your applications and data remain yours. The tests we write for you and the reports they produce are licensed to
        you for your internal use while the Service runs and afterwards. Our tools, portal and know-how remain ours.
      </p>
    ),
  },
  {
    heading: 'Limitation of liability',
    body: (
      <>
        <p>
          Testing reduces risk but cannot prove the absence of defects. To the extent the law allows, our total liability
          arising out of or in connection with the Service, in contract, tort or otherwise, is limited to the amounts you
          paid us for the Service in the twelve (12) months preceding the event giving rise to the claim.
        </p>
        <p>
          We are not liable for indirect or consequential loss, lost profits, lost revenue or lost data. Nothing in these
          terms limits liability for death or personal injury caused by negligence, for fraud, or for anything else that
          cannot be limited by law.
        </p>
      </>
    ),
  },
  {
    heading: 'Suspension and termination',
    body: (
      <p>
        We may suspend the Service if invoices remain unpaid 14 days after a reminder, or at once if its use endangers the
        security of any system. Either party may terminate immediately for a material breach that is not remedied within
        14 days of notice.
      </p>
    ),
  },
  {
    heading: 'Changes and governing law',
    body: (
      <p>
        We may update these terms with 30 days&apos; notice by email; if you do not agree, you may end the Service before
        the change takes effect. These terms are governed by the law of the country where Fullstop QA is registered,
        whose courts have exclusive jurisdiction, without prejudice to mandatory consumer protection rules.
      </p>
    ),
  },
];

export function TermsOfServicePage() {
  return (
    <LegalPage
      title="Terms of Service"
      intro={<p className="lead">The rules of the Fullstop QA testing service, the client portal and the API.</p>}
      sections={SECTIONS}
    />
  );
}
