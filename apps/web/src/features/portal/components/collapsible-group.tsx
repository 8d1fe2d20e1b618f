import { useId, useState, type ReactNode } from 'react';

/** A titled group with a count that folds open and closed; the button names it for screen readers. */
export function CollapsibleGroup({ name, count, children }: { name: string; count: number; children: ReactNode }) {
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  return (
    <section className="portal-group">
      <h2 className="portal-group__heading">
        <button type="button" className="portal-group__toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((v) => !v)}>
          <svg className="portal-group__chevron" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path d="M9 6l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="portal-group__name">{name}</span>
          <span className="portal-badge" aria-label={count === 1 ? '1 item' : `${count} items`}>
            {count}
          </span>
        </button>
      </h2>
      <div id={bodyId} className="portal-group__body" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
