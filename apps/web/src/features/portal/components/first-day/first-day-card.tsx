import { paths } from '@/config/paths.ts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useGetSuiteStatusQuery } from '../../store/suite-status-api.ts';
import { firstDayTexts } from './first-day-texts.ts';
import './first-day.css';

/** The request form opens on a question (requests-page reads `?kind=`). */
export const ASK_PATH = `${paths.requests}?kind=question`;

/**
 * A client without a current suite (its first days): where its suite stands, by whom, since when, when its first
 * report is due, and a way to ask. `otherwise` once a suite is current (or the status could not be read); nothing
 * while it is read.
 */
export function FirstDayCard({ otherwise = null }: { otherwise?: ReactNode }) {
  const status = useGetSuiteStatusQuery();
  if (status.isLoading) return null;
  if (!status.data || status.data.current) return otherwise;
  const texts = firstDayTexts(status.data);
  return (
    <section className="portal-card first-day" aria-labelledby="first-day-title" data-testid="first-day">
      <h2 id="first-day-title" className="portal-card__title">
        {texts.title}
      </h2>
      <p>{texts.preparing}</p>
      <p className={texts.late ? 'first-day__due first-day__due--late' : 'first-day__due'}>{texts.due}</p>
      <p className="first-day__ask">
        <Link to={ASK_PATH} className="btn btn--primary portal-btn-sm">
          Ask your QA team
        </Link>
        <span className="portal-muted">A question, a page to cover first, a test account: we answer in Requests.</span>
      </p>
    </section>
  );
}
