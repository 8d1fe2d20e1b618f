import type { FormEvent, ReactNode } from 'react';

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

interface CardFormProps {
  /** The title's id, which names the form for screen readers. */
  id: string;
  title: ReactNode;
  /** The form's own classes, beside `portal-card`. */
  className?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

/** A titled card that is a form, named by its heading; its fields are checked by its own code, not the browser's. */
export function CardForm({ id, title, className = 'portal-form', onSubmit, children }: CardFormProps) {
  return (
    <form className={`portal-card ${className}`} onSubmit={onSubmit} noValidate aria-labelledby={id}>
      <h2 id={id} className="portal-card__title">
        {title}
      </h2>
      {children}
    </form>
  );
}
