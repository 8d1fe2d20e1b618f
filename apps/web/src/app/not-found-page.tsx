export function NotFoundPage() {
  return (
    <main>
      <p>Sorry, the page you are looking for does not exist.</p>
    </main>
  );
}
