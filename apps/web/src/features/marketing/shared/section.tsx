import type { ReactNode } from 'react';

interface SectionProps {
  /** The anchor, e.g. "why-section"; the heading's id is derived from it ("why-title"). */
  id: string;
  eyebrow: string;
  title: string;
  lead?: string;
  /** Tinted background, centred head, narrow column. */
  tint?: boolean;
  center?: boolean;
  narrow?: boolean;
  children: ReactNode;
}

/** A section of a public page: its anchor, its head (eyebrow, heading, lead), then its content. */
export function Section({ id, eyebrow, title, lead, tint, center, narrow, children }: SectionProps) {
  const titleId = `${id.replace(/-section$/, '')}-title`;
  return (
    <section id={id} className={tint ? 'section section--tint' : 'section'} aria-labelledby={titleId}>
      <div className={narrow ? 'container narrow' : 'container'}>
        <div className={center ? 'section-head section-head--center' : 'section-head'}>
          <span className="eyebrow">{eyebrow}</span>
          <h2 id={titleId}>{title}</h2>
          {lead && <p className="lead">{lead}</p>}
        </div>
        {children}
      </div>
    </section>
  );
}
