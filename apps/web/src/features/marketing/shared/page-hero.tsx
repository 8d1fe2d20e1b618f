import type { ReactNode } from 'react';

/** The heading band at the top of the inner pages. */
export function PageHero({ id, eyebrow, title, children }: { id?: string; eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <section id={id} className="page-hero" aria-labelledby="page-title">
      <div className="container">
        <span className="eyebrow">{eyebrow}</span>
        <h1 id="page-title">{title}</h1>
        {children && <div className="lead">{children}</div>}
      </div>
    </section>
  );
}
