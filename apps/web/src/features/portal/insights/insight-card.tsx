import type { ReactNode } from 'react';
import { formatDate } from '@/lib/format-date.ts';
import { Card } from '../components/card.tsx';

/**
 * One insight card, named by its spec title; `runAt` is when the run its figures come from ended; `notice` says
 * why its latest tests could not run, above the figures.
 */
export function InsightCard({ title, runAt, notice, children }: { title: string; runAt?: string | undefined; notice?: ReactNode; children?: ReactNode }) {
  const id = `insight-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Card id={id} title={title}>
      {notice}
      {runAt && <p className="portal-card__meta">From the run of {formatDate(runAt)}</p>}
      {children}
    </Card>
  );
}
