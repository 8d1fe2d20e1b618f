import type { ReactNode } from 'react';

/** A dashboard page: a section named by its title. `id` is the heading's. */
export function PortalPage({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h1 id={id} className="portal-page-title">
        {title}
      </h1>
      {children}
    </section>
  );
}
