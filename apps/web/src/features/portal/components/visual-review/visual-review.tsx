import { cellLabel, type VisualReview, type VisualReviewImage, type VisualReviewResponse, type VisualReviewShot, type VisualShotStatus } from '@fullstop/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '@/lib/format-date.ts';
import './visual.css';

/** What the console adds to the view: the decisions on one shot (the portal shows the same view without them). */
export interface ShotActions {
  busy: boolean;
  approve(candidateId: string): void;
  reject(candidateId: string, note: string): void;
  openBug(candidateId: string, note: string): void;
  /** Where a bug opened from a shot is read. */
  bugLink(bugId: string): string;
}

const STATUS_WORDS: Record<VisualShotStatus, string> = { changed: 'Changed', failed: 'Could not compare', new: 'New', unchanged: 'Unchanged' };

export function regionText(shot: Pick<VisualReviewShot, 'region'>): string | null {
  const r = shot.region;
  return r ? `${r.width} × ${r.height} px at ${r.x}, ${r.y}` : null;
}

export function countsText(review: VisualReviewResponse): string {
  const { changed, pending, approved, rejected } = review.counts;
  const parts = [`${changed} changed ${changed === 1 ? 'shot' : 'shots'}`, `${pending} waiting for review`];
  if (approved) parts.push(`${approved} approved`);
  if (rejected) parts.push(`${rejected} rejected`);
  return parts.join(' · ');
}

function reviewText(review: VisualReview): string {
  const when = review.decidedAt ? ` on ${formatDate(review.decidedAt)}` : '';
  if (review.state === 'pending') return 'Waiting for review';
  if (review.state === 'approved') return `Approved${review.decidedBy ? ` by ${review.decidedBy}` : ''}${when}: the baseline of later runs`;
  return `Rejected${review.decidedBy ? ` by ${review.decidedBy}` : ''}${when}: the baseline stays`;
}

/** One image of the shot, whole in a new tab on a click; the current one with the region outlined over it. */
function Shot({ label, image, region }: { label: string; image: VisualReviewImage | null; region?: VisualReviewShot['region'] }) {
  if (!image) {
    return (
      <figure className="visual-figure visual-figure--none">
        <div className="visual-figure__frame">
          <span className="portal-muted">None</span>
        </div>
        <figcaption>{label}</figcaption>
      </figure>
    );
  }
  const box =
    region && image.width && image.height
      ? {
          left: `${(region.x / image.width) * 100}%`,
          top: `${(region.y / image.height) * 100}%`,
          width: `${Math.max((region.width / image.width) * 100, 0.5)}%`,
          height: `${Math.max((region.height / image.height) * 100, 0.5)}%`,
        }
      : null;
  return (
    <figure className="visual-figure">
      <a className="visual-figure__frame" href={image.url} target="_blank" rel="noreferrer noopener" aria-label={`Open the ${label.toLowerCase()} image in a new tab`}>
        <span className="visual-figure__image">
          <img src={image.url} alt={label} loading="lazy" width={image.width ?? undefined} height={image.height ?? undefined} />
          {box && <span className="visual-region" style={box} aria-hidden="true" />}
        </span>
      </a>
      <figcaption>{label}</figcaption>
    </figure>
  );
}

function ShotDecisions({ review, actions, where }: { review: VisualReview; actions: ShotActions; where: string }) {
  const [note, setNote] = useState('');
  const id = `visual-note-${review.candidateId}`;
  if (review.state === 'approved') return null;
  return (
    <div className="visual-decide">
      {review.state === 'pending' && (
        <div className="portal-field visual-note">
          <label htmlFor={id}>Note for a rejection (optional)</label>
          <input id={id} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
        </div>
      )}
      <div className="history-actions">
        <button type="button" className="btn btn--primary portal-btn-sm" disabled={actions.busy} aria-label={`Approve ${where}`} onClick={() => actions.approve(review.candidateId)}>
          Approve
        </button>
        {review.state === 'pending' && (
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={actions.busy} aria-label={`Reject ${where}`} onClick={() => actions.reject(review.candidateId, note)}>
            Reject
          </button>
        )}
        {!review.bugId && (
          <button type="button" className="btn btn--ghost portal-btn-sm" disabled={actions.busy} aria-label={`${review.state === 'pending' ? 'Reject and open bug' : 'Open bug'}: ${where}`} onClick={() => actions.openBug(review.candidateId, note)}>
            {review.state === 'pending' ? 'Reject and open bug' : 'Open bug'}
          </button>
        )}
      </div>
    </div>
  );
}

function ShotCard({ shot, actions }: { shot: VisualReviewShot; actions: ShotActions | undefined }) {
  const where = `${shot.page} on ${cellLabel(shot.cell)}`;
  const region = regionText(shot);
  const review = shot.review;
  return (
    <li className={`visual-shot visual-shot--${shot.status}`} aria-label={where}>
      <div className="history-test__head">
        <h4 className="visual-shot__title">
          <span className="portal-mono">{shot.page}</span> <span className="portal-muted">{cellLabel(shot.cell)}</span>
        </h4>
        <span className={`visual-status visual-status--${shot.status}`}>{STATUS_WORDS[shot.status]}</span>
      </div>
      <dl className="visual-facts">
        {shot.share !== null && (
          <div>
            <dt>Pixels changed</dt>
            <dd>
              {shot.share}
              {shot.changedPixels !== null && <span className="portal-muted"> ({shot.changedPixels.toLocaleString('en')})</span>}
            </dd>
          </div>
        )}
        {region && (
          <div>
            <dt>Region</dt>
            <dd>{region}</dd>
          </div>
        )}
        {review && (
          <div>
            <dt>Review</dt>
            <dd>{reviewText(review)}</dd>
          </div>
        )}
      </dl>
      {shot.reason && <p className="visual-reason">{shot.reason}</p>}
      {review?.note && <p className="visual-reason">Note: {review.note}</p>}
      {review && !review.comparedWithCurrent && review.state !== 'approved' && (
        <p className="visual-stale" role="note">
          This shot was compared with a baseline that is no longer current: approving it replaces the newer one.
        </p>
      )}
      {shot.status === 'new' ? (
        <div className="visual-figures visual-figures--one">
          <Shot label="New shot" image={shot.current} />
        </div>
      ) : (
        <div className="visual-figures">
          <Shot label="Baseline" image={shot.baseline} />
          <Shot label="Current" image={shot.current} region={shot.region} />
          <Shot label="Diff" image={shot.diff} />
        </div>
      )}
      {review?.bugId && actions && (
        <p>
          <Link to={actions.bugLink(review.bugId)}>Open the bug from this shot</Link>
        </p>
      )}
      {review && actions && <ShotDecisions review={review} actions={actions} where={where} />}
    </li>
  );
}

/**
 * A run's visual shots, per test: each changed, failed or new shot with its baseline, current and diff images side
 * by side, the share of pixels changed and the region; unchanged shots counted. The console passes `actions`.
 */
export function VisualReviewView({ review, actions }: { review: VisualReviewResponse; actions?: ShotActions }) {
  return (
    <div className="visual-review">
      {review.tests.map((test) => {
        const shown = test.shots.filter((s) => s.status !== 'unchanged');
        const unchanged = test.shots.length - shown.length;
        return (
          <section key={test.runTestId} className="visual-test" aria-label={`Shots of ${test.testName}`}>
            <h3 className="history-test__name">{test.testName}</h3>
            <p className="portal-muted">
              {test.shots.length === 0
                ? 'This test left no shots.'
                : `${test.shots.length} ${test.shots.length === 1 ? 'shot' : 'shots'}${unchanged ? `, ${unchanged} unchanged` : ''}.`}
            </p>
            {shown.length > 0 && (
              <ul className="visual-shots">
                {shown.map((shot) => (
                  <ShotCard key={`${shot.key}-${shot.cell}`} shot={shot} actions={actions} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
