import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { Card } from '../components/card.tsx';
import type { AlertRisk } from './home-summary.ts';

/** The security scan's alerts by risk; "No alerts found" when every count is zero. */
export function AlertsCard({ alerts }: { alerts: { risk: AlertRisk; count: number }[] | null }) {
  const total = alerts?.reduce((sum, a) => sum + a.count, 0) ?? 0;
  return (
    <Card id="home-alerts" title="Alerts by risk" className="home-card home-alerts" titleClassName="home-card__title">
      {alerts === null ? (
        <p className="home-card__meta">No security scan has run yet.</p>
      ) : total === 0 ? (
        <p className="home-card__ok">No alerts found</p>
      ) : (
        <ul className="home-alerts__list">
          {alerts.map(({ risk, count }) => (
            <li key={risk} className={`home-alerts__item home-alerts__item--${risk.toLowerCase()}${count === 0 ? ' home-alerts__item--none' : ''}`}>
              <span className="home-alerts__count">{count}</span>
              <span className="home-alerts__risk">{risk}</span>
            </li>
          ))}
        </ul>
      )}
      {alerts !== null && (
        <Link className="home-card__link" to={paths.insights}>
          See insights
        </Link>
      )}
    </Card>
  );
}
