import type { ReactNode } from 'react';

interface CardProps {
  /** The title's id, which names the section for screen readers. */
  id: string;
  title: string;
  /** The card's own classes, beside `portal-card`. */
  className?: string;
  titleClassName?: string;
  children: ReactNode;
}

/** A titled card of a portal page: a section named by its heading. */
export function Card({ id, title, className, titleClassName = 'portal-card__title', children }: CardProps) {
  return (
    <section className={className ? `portal-card ${className}` : 'portal-card'} aria-labelledby={id}>
      <h2 id={id} className={titleClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}
