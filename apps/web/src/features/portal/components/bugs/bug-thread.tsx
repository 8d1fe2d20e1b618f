import type { BugComment } from '@fullstop/contracts';
import { useId, useState, type FormEvent } from 'react';
import { formatDate } from '@/lib/format-date.ts';
import { SubmitRow } from '../busy-button.tsx';
import { Card } from '../card.tsx';

interface BugThreadProps {
  comments: BugComment[];
  side: 'client' | 'operator';
  /** Resolves once the server kept the comment; rejects with its message. */
  onComment: (body: string) => Promise<void>;
}

/** The one thread both sides write in, oldest first, and the form to add to it. */
export function BugThread({ comments, side, onComment }: BugThreadProps) {
  const fieldId = useId();
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = body.trim();
    if (!text) {
      setError('Write a comment first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onComment(text);
      setBody('');
    } catch (failure) {
      setError(`Could not send the comment: ${failure instanceof Error ? failure.message : String(failure)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card id="bug-thread-title" title="Discussion" className="bug-section">
      {comments.length === 0 ? (
        <p className="portal-muted">
          {side === 'client' ? 'No comments yet. Ask our QA team anything about this bug here.' : 'No comments yet.'}
        </p>
      ) : (
        <ol className="bug-thread">
          {comments.map((comment) => (
            <li key={comment.id} className={`bug-comment bug-comment--${comment.side}`}>
              <p className="bug-comment__meta">
                <span className="bug-comment__author">{comment.author}</span>
                <time dateTime={comment.createdAt}>{formatDate(comment.createdAt)}</time>
              </p>
              <p className="bug-comment__body">{comment.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form className="bug-comment-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="portal-field">
          <label htmlFor={fieldId}>Add a comment</label>
          <textarea
            id={fieldId}
            rows={3}
            maxLength={10_000}
            value={body}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${fieldId}-error` : undefined}
            onChange={(e) => {
              setBody(e.target.value);
              setError(null);
            }}
          />
          {error && (
            <p id={`${fieldId}-error`} className="portal-field__error" role="alert">
              {error}
            </p>
          )}
        </div>
        <SubmitRow className="btn btn--primary portal-btn-sm" busy={busy} busyText="Sending…">Send comment</SubmitRow>
      </form>
    </Card>
  );
}
