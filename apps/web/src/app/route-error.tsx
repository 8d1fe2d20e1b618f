import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The router's generic fallback. It renders without the layout, so it carries its own minimal frame. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main id="main" className="status-page container">
      <h1>Unexpected Application Error!</h1>
      <p className="lead status-page__text">{detail}</p>
      <a className="btn btn--primary" href="/">
        Back to the home page
      </a>
    </main>
  );
}
