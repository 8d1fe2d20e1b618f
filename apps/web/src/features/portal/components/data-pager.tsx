import type { ReactNode } from 'react';

interface DataPagerProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  className: string;
  /** What the middle says, after "Page n of m" (e.g. " (120 events)"). */
  extra?: ReactNode;
}

/** Previous / Page n of m / Next under a paged list. */
export function DataPager({ page, pages, onPage, className, extra }: DataPagerProps) {
  return (
    <nav className={className} aria-label="Pages">
      <button type="button" className="btn btn--ghost portal-btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {pages}
        {extra}
      </span>
      <button type="button" className="btn btn--ghost portal-btn-sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
