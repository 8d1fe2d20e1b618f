export function DashboardNotFound() {
  return <p className="portal-empty">Sorry, the page you are looking for does not exist.</p>;
}
