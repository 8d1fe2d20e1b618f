import { Link } from 'react-router';
import { RETENTION_DEFAULT_DAYS, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from '@fullstop/contracts';
import { paths } from '@/config/paths.ts';
import { LegalPage, type LegalSection } from './legal-page.tsx';

const SECTIONS: LegalSection[] = [
  {
    heading: 'Who we are',
    body: (
      <p>
        Fullstop QA (&quot;Fullstop&quot;, &quot;we&quot;, &quot;us&quot;) provides managed quality-assurance testing of web and mobile
        applications. We are the controller of the personal data described in this policy for our website and our
        sales contacts, and a processor of any personal data contained in material our clients give us for testing.
      </p>
    ),
  },
  {
    heading: 'The principles we follow',
    body: (
      <>
        <p>We handle personal data according to the principles of the EU General Data Protection Regulation (GDPR):</p>
        <ul>
          <li><strong>Lawfulness, fairness and transparency</strong>: we tell you what we collect and why, and we only process it on a legal basis.</li>
          <li><strong>Purpose limitation</strong>: data collected for one purpose is not reused for an unrelated one.</li>
          <li><strong>Data minimisation</strong>: we collect only what we need to answer you or to test your application.</li>
          <li><strong>Accuracy</strong>: you can correct the data we hold about you at any time.</li>
          <li><strong>Storage limitation</strong>: we keep data only as long as the purpose requires, then delete it.</li>
          <li><strong>Integrity and confidentiality</strong>: data is encrypted in transit, access is limited to the people who need it, and passwords and keys are stored hashed or encrypted.</li>
          <li><strong>Accountability</strong>: we document our processing and can show how we comply.</li>
        </ul>
      </>
    ),
  },
  {
    heading: 'What we collect',
    body: (
      <ul>
        <li><strong>Contact requests</strong>: your name, phone number and message when you write to us. The contact form opens your own mail client; the message reaches us as an ordinary email.</li>
        <li><strong>Client accounts</strong>: the email address, name and company of the people who log in to the client portal, and a record of the test runs they start.</li>
        <li><strong>Test material</strong>: website addresses, test accounts, mobile builds and sample data that clients provide so we can test their applications.</li>
        <li><strong>Technical data</strong>: server logs (IP address, time, requested page) kept for security, and the cookie choices described in our <Link to={paths.cookiePolicy}>Cookie Policy</Link>.</li>
      </ul>
    ),
  },
  {
    heading: 'Only data meant for public release',
    body: (
      <p>
        Clients must only supply data meant for public release: test accounts, sample content and builds that could be
        published without harm. Do not give us production personal data, real customer records, real payment cards or
        secrets that are not dedicated to testing. We test payments with sandbox cards only. If we find that material we
        received contains personal data that should not be there, we stop using it, tell the client, and delete it.
      </p>
    ),
  },
  {
    heading: 'Why we use it and on what basis',
    body: (
      <ul>
        <li>To answer your enquiry and prepare an offer: steps at your request before a contract (GDPR Art. 6(1)(b)).</li>
        <li>To provide the testing service and the client portal: performance of our contract (Art. 6(1)(b)).</li>
        <li>To keep our systems secure and prevent abuse: our legitimate interest (Art. 6(1)(f)).</li>
        <li>To keep invoices and records the law requires: legal obligation (Art. 6(1)(c)).</li>
      </ul>
    ),
  },
  {
    heading: 'How long we keep it',
    body: (
      <ul>
        <li>Test data and test material are deleted after testing, and in any case within 30 days after the client relationship ends.</li>
        <li>
          Test runs, with their reports, logs, screenshots and traces, and uploaded app builds are deleted automatically
          once they are {RETENTION_DEFAULT_DAYS} days old. A client may agree a different retention period with us, between{' '}
          {RETENTION_MIN_DAYS} days and {RETENTION_MAX_DAYS / 365} years; its portal states the period that applies to it.
        </li>
        <li>
          Each test&apos;s latest run is kept, however old, so its latest result and report stay available; the build in
          use is kept until it is replaced or deleted. Everything else is deleted with the account.
        </li>
        <li>A client can delete an uploaded build at any time from its portal; the file is removed at once.</li>
        <li>Contact requests that do not lead to a contract are deleted within 12 months.</li>
        <li>Server logs are kept for at most 30 days; invoices for as long as tax law requires.</li>
      </ul>
    ),
  },
  {
    heading: 'Who we share it with',
    body: (
      <p>
        We do not sell personal data. We share it only with service providers that host our systems or deliver our email,
        under data processing agreements that bind them to the same standards, and with authorities where the law
        requires. Where data leaves the European Economic Area, we rely on an adequacy decision or the European
        Commission&apos;s standard contractual clauses.
      </p>
    ),
  },
  {
    heading: 'Your rights',
    body: (
      <p>
        You may ask for access to your data, its correction or deletion, restriction of or objection to its processing,
        and a copy in a portable format. Where we rely on consent you may withdraw it at any time. We answer within one
        month. You also have the right to complain to your data protection supervisory authority.
      </p>
    ),
  },
  {
    heading: 'Changes to this policy',
    body: <p>We will post any change on this page with a new date, and tell clients by email about material changes.</p>,
  },
];

export function PrivacyPolicyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={<p className="lead">How Fullstop QA collects, uses, protects and deletes personal data, in plain words.</p>}
      sections={SECTIONS}
    />
  );
}
