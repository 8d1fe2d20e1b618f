import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { Logo } from './logo.tsx';
import { MAIN_LINKS } from './site-links.ts';

const COLUMNS = [
  { title: 'Quick Links', links: MAIN_LINKS },
  {
    title: 'Legal',
    links: [
      { to: paths.privacyPolicy, label: 'Privacy Policy' },
      { to: paths.termsOfService, label: 'Terms of Service' },
      { to: paths.cookiePolicy, label: 'Cookie Policy' },
      { to: paths.disclaimer, label: 'Disclaimer' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { to: `${paths.contactUs}#faq-section`, label: 'FAQs' },
      { to: `${paths.pricing}#comparison-section`, label: 'InHouse QA vs Us' },
      { to: `${paths.home}#how-section`, label: 'How We Work' },
    ],
  },
] as const;

/** The copyright year the spec shows; a fixed value keeps prerendered HTML and the client in agreement. */
const COPYRIGHT_YEAR = 2024;

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="site-footer__grid">
          <div className="site-footer__brand">
            <Link to={paths.home} className="logo" aria-label="Fullstop QA home">
              <Logo title="Fullstop QA" />
            </Link>
            <p>We Test so you don&apos;t have to (period). Managed QA for web and mobile applications.</p>
          </div>
          {COLUMNS.map((column) => (
            <nav key={column.title} aria-label={column.title}>
              <h2>{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <p className="site-footer__copy">© {COPYRIGHT_YEAR} Fullstop QA. All rights reserved.</p>
      </div>
    </footer>
  );
}
