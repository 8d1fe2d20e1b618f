import type { ReactNode } from 'react';

export function InsightCard({ title, children }: { title: string; children: ReactNode }) {
  const id = `insight-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section className="portal-card" aria-labelledby={id}>
      <h2 id={id} className="portal-card__title">
        {title}
      </h2>
      {children}
    </section>
  );
}
