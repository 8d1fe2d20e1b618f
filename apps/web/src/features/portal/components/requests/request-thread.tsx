import type { ClientRequestDetail, RequestAttachment, RequestMessage, RequestSide } from '@fullstop/contracts';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { formatBytes } from '@/lib/format-bytes.ts';
import { formatDate } from '@/lib/format-date.ts';
import { describeError } from '@/lib/http-client.ts';
import { SubmitRow } from '../busy-button.tsx';
import { Notice, type NoticeText } from '../notice.tsx';
import { TextAreaField } from '../text-field.tsx';
import { ViewerNote } from '../viewer-note.tsx';
import { downloadRequestFile, uploadRequestFile, type RequestRef } from './request-files.ts';
import { KIND_LABELS, replyProblem } from './request-labels.ts';
import { RequestStatusBadge } from './request-status-badge.tsx';
import './requests.css';

function FileList({ files, where, onError }: { files: RequestAttachment[]; where: RequestRef; onError: (text: string) => void }) {
  if (files.length === 0) return null;
  return (
    <ul className="request-files" aria-label="Attachments">
      {files.map((file) => (
        <li key={file.id}>
          <button
            type="button"
            className="request-file"
            title={`Download ${file.name}`}
            onClick={() => downloadRequestFile(where, file).catch((error: unknown) => onError(`Could not download ${file.name}: ${describeError(error)}`))}
          >
            <span>{file.name}</span>
            <small>{formatBytes(file.size)}</small>
          </button>
        </li>
      ))}
    </ul>
  );
}

function sideName(side: RequestSide, viewer: RequestSide): string {
  if (side === 'operator') return viewer === 'operator' ? 'QA team' : 'Fullstop QA team';
  return viewer === 'client' ? 'Your team' : 'Client';
}

/** "Dana (Fullstop QA team)"; the side alone when it is the author's name (a reply sent with the operator token). */
function authorLine(author: string, side: string): string {
  return author === side ? side : `${author} (${side})`;
}

export interface RequestThreadProps {
  detail: ClientRequestDetail;
  viewer: RequestSide;
  /** Sends the reply; answers the request as it is now (with the new reply last). */
  onReply: (body: string) => Promise<ClientRequestDetail>;
  /** Called after files were added, so the caller can load the request again. */
  onFilesChanged: () => void;
  /** Shown beside the status (the console's status select). */
  actions?: ReactNode;
  /** Shown above the title (e.g. "Back to requests", the client's name). */
  header?: ReactNode;
  /** Why this user may only read the thread (a team viewer, see useViewerReason): said in place of the reply box. */
  readOnlyReason?: string | null;
}

/**
 * A request and its thread, oldest first, with a reply box that takes one file. Everything in it was typed by a
 * person and is shown as text.
 */
export function RequestThread({ detail, viewer, onReply, onFilesChanged, actions, header, readOnlyReason }: RequestThreadProps) {
  const where: RequestRef = { id: detail.id, operator: viewer === 'operator' };
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [notice, setNotice] = useState<NoticeText | null>(null);
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const showError = (text: string) => setNotice({ tone: 'error', text });
  // A failed download is said here too, so a reader without the reply box still hears of it.
  const shownNotice = notice && <Notice tone={notice.tone}>{notice.text}</Notice>;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = replyProblem(body, file);
    if (problem) return showError(problem);
    setSending(true);
    setNotice(null);
    try {
      const after = await onReply(body);
      setBody('');
      if (file) {
        const mine = after.messages.filter((m: RequestMessage) => m.side === viewer).at(-1);
        try {
          await uploadRequestFile(where, file, mine?.id ?? null);
          onFilesChanged();
        } catch (error) {
          showError(`Your reply was sent, but ${file.name} was not attached: ${describeError(error)}`);
          return;
        } finally {
          setFile(null);
          if (fileInput.current) fileInput.current.value = '';
        }
      }
      setNotice({ tone: 'success', text: viewer === 'client' ? 'Reply sent. The QA team has been notified.' : 'Reply sent. The client has been notified.' });
    } catch (error) {
      showError(`Could not send the reply: ${describeError(error)}`);
    } finally {
      setSending(false);
    }
  }

  return (
    <article className="request-thread" aria-labelledby={`request-${detail.id}-title`}>
      {header}
      <div className="request-thread__head">
        <h2 id={`request-${detail.id}-title`} className="request-thread__title">
          {detail.title}
        </h2>
        <RequestStatusBadge status={detail.status} />
        {actions}
      </div>
      <div className="request-message">
        <p className="request-message__meta">
          {KIND_LABELS[detail.kind]} · sent {formatDate(detail.createdAt, '—')}
        </p>
        <p className="request-message__body">{detail.details}</p>
        <FileList files={detail.attachments} where={where} onError={showError} />
      </div>
      {detail.messages.length > 0 && (
        <ol className="request-thread__messages" aria-label="Replies">
          {detail.messages.map((message) => (
            <li key={message.id} className={`request-message request-message--${message.side}`}>
              <p className="request-message__meta">
                {authorLine(message.authorName, sideName(message.side, viewer))} · {formatDate(message.createdAt, '—')}
              </p>
              <p className="request-message__body">{message.body}</p>
              <FileList files={message.attachments} where={where} onError={showError} />
            </li>
          ))}
        </ol>
      )}
      {readOnlyReason ? (
        <>
          <ViewerNote note={readOnlyReason} />
          {shownNotice}
        </>
      ) : (
        <form className="portal-form" onSubmit={onSubmit} noValidate aria-label="Reply">
          <TextAreaField id={`reply-${detail.id}`} label="Your reply" rows={4} maxLength={10_000} value={body} onChange={(e) => setBody(e.target.value)} />
          <div className="portal-field">
            <label htmlFor={`reply-file-${detail.id}`}>Attachment (optional)</label>
            <input
              ref={fileInput}
              id={`reply-file-${detail.id}`}
              type="file"
              accept="image/*,video/mp4,video/webm,video/quicktime,application/pdf,text/plain,text/csv,.csv,.zip,application/zip"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            <p className="portal-muted portal-field__hint">Images, video, PDF, text, CSV or zip, up to 50 MB.</p>
          </div>
          {shownNotice}
          <SubmitRow busy={sending} busyText="Sending…">Send reply</SubmitRow>
        </form>
      )}
    </article>
  );
}
