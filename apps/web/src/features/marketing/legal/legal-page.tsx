import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { usePageTitle } from '@/components/page-title.ts';

export interface LegalSection {
  heading: string;
  body: ReactNode;
}

export const LEGAL_UPDATED = '1 March 2024';

/** The frame of every legal page: title, date, a table of contents and numbered sections. */
export function LegalPage({ title, intro, sections }: { title: string; intro: ReactNode; sections: readonly LegalSection[] }) {
  usePageTitle(title);
  const slug = (i: number) => `section-${i + 1}`;
  return (
    <article className="legal">
      <header className="page-hero">
        <div className="container narrow">
          <span className="eyebrow">Legal</span>
          <h1 id="page-title">{title}</h1>
          <p className="legal__updated">Last updated: {LEGAL_UPDATED}</p>
        </div>
      </header>
      <div className="container narrow legal__body">
        <div className="legal__intro">{intro}</div>
        <nav aria-label="Contents" className="legal__toc">
          <h2>Contents</h2>
          <ol>
            {sections.map((s, i) => (
              <li key={s.heading}>
                <a href={`#${slug(i)}`}>{s.heading}</a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((s, i) => (
          <section key={s.heading} id={slug(i)} aria-labelledby={`${slug(i)}-title`}>
            <h2 id={`${slug(i)}-title`}>
              {i + 1}. {s.heading}
            </h2>
            {s.body}
          </section>
        ))}
        <p className="legal__contact">
          Questions about this page? Write to us through the <Link to={paths.contactUs}>Contact Us</Link> page.
        </p>
      </div>
    </article>
  );
}
