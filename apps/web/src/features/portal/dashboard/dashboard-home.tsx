import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';

const TILES = [
  { to: paths.insights, title: 'Insights', text: 'Load, security and test results of your latest runs at a glance.' },
  { to: paths.setup, title: 'Setup', text: 'Your website, your API key for CI, and your Android and iOS builds.' },
  { to: paths.tests, title: 'Tests', text: 'Run your whole suite, or a single test, whenever you like.' },
  { to: paths.reports, title: 'Reports', text: 'Download every report in the formats it was written in.' },
  { to: paths.requests, title: 'Requests', text: 'Ask for a new feature test, a manual test, or a free retest.' },
] as const;

export function DashboardHome() {
  return (
    <section aria-labelledby="dashboard-home-title">
      <h1 id="dashboard-home-title" className="portal-page-title">
        Overview
      </h1>
      <ul className="portal-tiles">
        {TILES.map((tile) => (
          <li key={tile.to}>
            <Link to={tile.to} className="portal-tile">
              <span className="portal-tile__title">{tile.title}</span>
              <span className="portal-tile__text">{tile.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
