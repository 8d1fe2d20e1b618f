export function HomePage() {
  return <main><h1>We Test so you don&apos;t have to (period).</h1></main>;
}
