import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { openBugCount } from '../components/bugs/bug-labels.ts';
import { Card } from '../components/card.tsx';
import { useGetBugsQuery } from '../store/bugs-api.ts';
import '../components/bugs/bugs.css';

/** How many of the client's bugs still need someone (open, accepted, fixed, in retest, reopened). */
export function OpenBugsCard() {
  const bugs = useGetBugsQuery({ side: 'client' }, { refetchOnMountOrArgChange: true });
  const count = openBugCount(bugs.data?.counts);
  return (
    <Card id="home-bugs" title="Open bugs" className="home-card home-bugs" titleClassName="home-card__title">
      {bugs.isLoading ? (
        <p className="home-card__meta" role="status">
          Loading your bugs…
        </p>
      ) : bugs.isError ? (
        <p className="home-card__meta">Your bugs could not be loaded.</p>
      ) : count === 0 ? (
        <p className="home-card__ok">No open bugs</p>
      ) : (
        <p className="bug-open-count">
          {count} <span className="visually-hidden">{count === 1 ? 'open bug' : 'open bugs'}</span>
        </p>
      )}
      <Link className="home-card__link" to={paths.bugs}>
        See bugs
      </Link>
    </Card>
  );
}
