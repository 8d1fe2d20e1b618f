import { LegalPage, type LegalSection } from './legal-page.tsx';

const SECTIONS: LegalSection[] = [
  {
    heading: 'What cookies are',
    body: (
      <p>
        Cookies are small text files a website stores in your browser. Local storage is a similar browser feature that
        keeps small pieces of data on your device. This policy covers both.
      </p>
    ),
  },
  {
    heading: 'What we store and why',
    body: (
      <div className="table-scroll">
        <table className="legal__table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Where</th>
              <th scope="col">Purpose</th>
              <th scope="col">Lifetime</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td><code>cookieConsent</code></td>
              <td>Local storage</td>
              <td>Remembers whether you accepted or rejected cookies, so we do not ask again.</td>
              <td>Until you clear it</td>
            </tr>
            <tr>
              <td><code>CookieConsent</code></td>
              <td>Cookie (path /)</td>
              <td>Set only when you accept: records your consent for the whole site.</td>
              <td>1 year</td>
            </tr>
            <tr>
              <td><code>isAuthenticated</code>, <code>accessToken</code>, <code>refreshToken</code>, <code>userData</code>, <code>apiKey</code></td>
              <td>Local storage</td>
              <td>Keep clients logged in to the portal. Strictly necessary; stored only after you log in.</td>
              <td>Until you log out</td>
            </tr>
          </tbody>
        </table>
      </div>
    ),
  },
  {
    heading: 'What we do not use',
    body: (
      <p>
        We use no advertising cookies, no cross-site tracking and no third-party analytics. Our pages load no scripts,
        fonts or images from other websites.
      </p>
    ),
  },
  {
    heading: 'Your choice',
    body: (
      <p>
        The Cookie Policy popup lets you accept or reject cookies the first time you visit. Rejecting does not stop the
        site from working: strictly necessary storage for logging in is still used when you log in. You can change your
        mind at any time by clearing this site&apos;s data in your browser settings; the popup will then ask again.
      </p>
    ),
  },
  {
    heading: 'Changes',
    body: <p>If we ever add a cookie, we will list it here first and ask for your consent again where the law requires.</p>,
  },
];

export function CookiePolicyPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      intro={<p className="lead">Which cookies and local storage this website uses, what for, and how you stay in control.</p>}
      sections={SECTIONS}
    />
  );
}
