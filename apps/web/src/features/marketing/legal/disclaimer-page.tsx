import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { LegalPage, type LegalSection } from './legal-page.tsx';

const SECTIONS: LegalSection[] = [
  {
    heading: 'Information on this website',
    body: (
      <p>
        The content of this website is general information about our services. We keep it accurate and current, but we
        give no warranty that it is complete or free of errors, and it is not professional advice for your particular
        situation. Prices and features are confirmed in your order.
      </p>
    ),
  },
  {
    heading: 'Testing results',
    body: (
      <p>
        Tests show the behaviour of an application at the time and under the conditions they ran. A passing test suite
        does not guarantee that an application is free of defects, secure against every attack, accessible to every
        user or fit for a particular purpose. Decisions to release remain yours.
      </p>
    ),
  },
  {
    heading: 'Data you provide',
    body: (
      <p>
        Supply only data meant for public release. We are not responsible for consequences of personal, confidential or
        production data being supplied contrary to our <Link to={paths.termsOfService}>Terms of Service</Link>; such data is
        deleted when found and, in any case, after testing.
      </p>
    ),
  },
  {
    heading: 'Limitation of liability',
    body: (
      <p>
        To the extent the law allows, our liability in connection with the Service is limited to the amounts the client
        paid us in the twelve months preceding the event giving rise to the claim, as set out in the Terms of Service.
        We accept no liability to visitors for the use of information on this website.
      </p>
    ),
  },
  {
    heading: 'Links and trademarks',
    body: (
      <p>
        Names of browsers, operating systems and other products mentioned on this website are trademarks of their owners
        and are used only to describe compatibility. We are not responsible for the content of websites we link to.
      </p>
    ),
  },
];

export function DisclaimerPage() {
  return (
    <LegalPage
      title="Disclaimer"
      intro={<p className="lead">What this website, and a passing test run, can and cannot promise.</p>}
      sections={SECTIONS}
    />
  );
}
