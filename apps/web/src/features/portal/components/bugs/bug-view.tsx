import type { Bug, BugAction } from '@fullstop/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import { Card } from '../card.tsx';
import { BugActions } from './bug-actions.tsx';
import { BugAttachments, type LoadAttachment, type UploadAttachment } from './bug-attachments.tsx';
import { SeverityBadge, StatusBadge } from './bug-badges.tsx';
import { bugNumber, environmentText, SOURCE_LABELS } from './bug-labels.ts';
import { BugThread } from './bug-thread.tsx';
import { BugTimeline } from './bug-timeline.tsx';
import './bugs.css';

/** "BUG-12 · Checkout button does nothing": a bug's heading. */
export const bugHeading = (bug: Pick<Bug, 'number' | 'title'>) => `${bugNumber(bug.number)} · ${bug.title}`;

export interface BugViewProps {
  bug: Bug;
  side: 'client' | 'operator';
  /** Where the linked test's run can be seen (the client's History), when it can. */
  runHref?: string | null | undefined;
  /** The console names whose bug it is. */
  clientName?: string | undefined;
  /** Shown under the facts: the client's severity select, the console's edit button. */
  controls?: ReactNode;
  busy?: boolean;
  onAction: (action: BugAction, reason?: string) => Promise<void>;
  onComment: (body: string) => Promise<void>;
  loadAttachment: LoadAttachment;
  onUpload?: UploadAttachment | undefined;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="bug-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * One bug as both sides see it: its facts, the steps to reproduce, expected and actual, the evidence, the
 * status history and the thread, with a button per action the server allows. Every string comes from a client's
 * site or an operator's notes, so it is rendered as text only.
 */
export function BugView({ bug, side, runHref, clientName, controls, busy = false, onAction, onComment, loadAttachment, onUpload }: BugViewProps) {
  const environment = environmentText(bug.environment);
  return (
    <div className="bug-view">
      <section className="portal-card bug-section bug-summary" aria-label="Summary">
        <div className="bug-summary__badges">
          <SeverityBadge severity={bug.severity} />
          <StatusBadge status={bug.status} />
          <span className="portal-muted bug-summary__source">{SOURCE_LABELS[bug.source]}</span>
        </div>
        <dl className="bug-facts">
          {clientName && <Fact label="Client">{clientName}</Fact>}
          {bug.url && (
            <Fact label="URL">
              <span className="portal-mono bug-break">{bug.url}</span>
            </Fact>
          )}
          {environment && <Fact label="Environment">{environment}</Fact>}
          {bug.link && (
            <Fact label="Linked test">
              <span className="bug-break">{bug.link.testName}</span>
              {runHref && (
                <>
                  {' '}
                  <Link to={runHref} className="bug-link">
                    See the run in History
                  </Link>
                </>
              )}
            </Fact>
          )}
          <Fact label="Reported">{formatDate(bug.createdAt, '—')}</Fact>
          <Fact label="Updated">{formatDate(bug.updatedAt, '—')}</Fact>
          {bug.exports.length > 0 && (
            <Fact label="Exported to">
              <ul className="bug-exports">
                {bug.exports.map((target) => (
                  <li key={`${target.target}-${target.reference}`}>
                    {target.target}:{' '}
                    {target.url && /^https?:\/\//i.test(target.url) ? (
                      <a href={target.url} target="_blank" rel="noopener noreferrer">
                        {target.reference}
                      </a>
                    ) : (
                      target.reference
                    )}
                  </li>
                ))}
              </ul>
            </Fact>
          )}
        </dl>
        {controls}
        <BugActions actions={bug.actions} side={side} hasLinkedTest={Boolean(bug.link)} busy={busy} onAction={onAction} />
      </section>

      <div className="bug-columns">
        <div className="bug-columns__main">
          <Card id="bug-steps-title" title="Steps to reproduce" className="bug-section">
            {bug.steps.length === 0 ? (
              <p className="portal-muted">No steps noted.</p>
            ) : (
              <ol className="bug-steps">
                {bug.steps.map((step, i) => (
                  <li key={i}>{step}</li>
                ))}
              </ol>
            )}
            <div className="bug-outcomes">
              <div>
                <h3 className="bug-outcome__title">Expected</h3>
                <p className="bug-outcome__text">{bug.expected || '—'}</p>
              </div>
              <div>
                <h3 className="bug-outcome__title">Actual</h3>
                <p className="bug-outcome__text">{bug.actual || '—'}</p>
              </div>
            </div>
          </Card>
          <BugAttachments attachments={bug.attachments} load={loadAttachment} onUpload={onUpload} />
          <BugThread comments={bug.comments} side={side} onComment={onComment} />
        </div>
        <div className="bug-columns__aside">
          <BugTimeline events={bug.events} />
        </div>
      </div>
    </div>
  );
}
