import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { usePageTitle } from '@/components/page-title.ts';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="status-page container">
      <p className="status-page__code" aria-hidden="true">404</p>
      <h1>Page not found</h1>
      <p className="lead status-page__text">
        Sorry, the page you are looking for does not exist.
      </p>
      <Link className="btn btn--primary" to={paths.home}>
        Back to the home page
      </Link>
    </div>
  );
}
