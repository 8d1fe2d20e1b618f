import type { BugAttachment } from '@fullstop/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { downloadBlob } from '@/lib/download-blob.ts';
import { formatBytes } from '@/lib/format-bytes.ts';
import { Card } from '../card.tsx';
import { Notice } from '../notice.tsx';
import { useBlobUrl } from '../use-blob-url.ts';
import { ATTACHMENT_ACCEPT, attachmentProblem, isImage } from './bug-labels.ts';

/** Reads one attachment's bytes (bearer auth, through the HTTP client). */
export type LoadAttachment = (attachmentId: string) => Promise<Blob>;
/** Sends one file; rejects with the server's message when it refuses it. */
export type UploadAttachment = (file: File, onProgress: (fraction: number) => void) => Promise<void>;

/** An image attachment as a thumbnail, read as a blob; a click opens it full size. */
function Thumbnail({ attachment, load }: { attachment: BugAttachment; load: LoadAttachment }) {
  const { url, failed } = useBlobUrl(() => load(attachment.id), attachment.id);
  return (
    <li className="bug-thumb">
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" className="bug-thumb__link">
          <img src={url} alt={attachment.name} className="bug-thumb__img" />
        </a>
      ) : (
        <span className="bug-thumb__placeholder" role={failed ? 'alert' : 'status'}>
          {failed ? 'Could not load this image.' : 'Loading…'}
        </span>
      )}
      <span className="bug-thumb__name">{attachment.name}</span>
    </li>
  );
}

/** A video, trace or finding: downloaded through the HTTP client, then saved under its own name. */
function DownloadRow({ attachment, load }: { attachment: BugAttachment; load: LoadAttachment }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    setError(null);
    try {
      downloadBlob(await load(attachment.id), attachment.name);
    } catch (failure) {
      setError(`Could not download ${attachment.name}: ${failure instanceof Error ? failure.message : String(failure)}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="portal-row bug-file">
      <div className="portal-row__main">
        <span className="portal-row__name bug-file__name">{attachment.name}</span>
        <span className="portal-row__meta">
          {attachment.kind} · {formatBytes(attachment.size)}
        </span>
      </div>
      <button type="button" className="btn btn--ghost portal-btn-sm" disabled={busy} onClick={() => void download()} aria-label={`Download ${attachment.name}`}>
        {busy ? 'Downloading…' : 'Download'}
      </button>
      {error && <Notice tone="error" className="bug-file__error">{error}</Notice>}
    </li>
  );
}

/** Attach a screenshot or a video: the size and type are checked here first, then the server's answer shown. */
export function AttachmentUpload({ onUpload }: { onUpload: UploadAttachment }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function choose(next: File | null) {
    setDone(null);
    setFile(next);
    setProblem(next ? attachmentProblem(next) : null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!file) {
      setProblem('Choose a file first.');
      return;
    }
    const check = attachmentProblem(file);
    if (check) {
      setProblem(check);
      return;
    }
    setProgress(0);
    try {
      await onUpload(file, setProgress);
      setDone(`${file.name} attached.`);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
    } catch (failure) {
      setProblem(`Could not attach ${file.name}: ${failure instanceof Error ? failure.message : String(failure)}`);
    } finally {
      setProgress(null);
    }
  }

  return (
    <form className="bug-upload" onSubmit={(e) => void submit(e)} noValidate aria-label="Attach a file">
      <div className="portal-field">
        <label htmlFor={inputId}>Attach a screenshot or a video</label>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={ATTACHMENT_ACCEPT}
          aria-invalid={Boolean(problem)}
          aria-describedby={`${inputId}-hint`}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
        />
        <p id={`${inputId}-hint`} className="portal-muted portal-field__hint">
          PNG, JPEG, GIF or WebP images and MP4, WebM or MOV videos, up to 50 MB.
        </p>
      </div>
      {problem && <Notice tone="error">{problem}</Notice>}
      {done && <Notice tone="success">{done}</Notice>}
      <div className="portal-actions">
        <button type="submit" className="btn btn--ghost portal-btn-sm" disabled={progress !== null || Boolean(file && attachmentProblem(file))}>
          {progress !== null ? `Uploading… ${Math.round(progress * 100)}%` : 'Attach'}
        </button>
      </div>
    </form>
  );
}

interface BugAttachmentsProps {
  attachments: BugAttachment[];
  load: LoadAttachment;
  onUpload?: UploadAttachment | undefined;
}

/** Images as thumbnails, everything else (videos, traces, findings) as downloads, and the upload form. */
export function BugAttachments({ attachments, load, onUpload }: BugAttachmentsProps) {
  const images = attachments.filter((a) => isImage(a.contentType));
  const files = attachments.filter((a) => !isImage(a.contentType));
  return (
    <Card id="bug-attachments-title" title="Evidence" className="bug-section">
      {attachments.length === 0 && <p className="portal-muted">No attachments yet.</p>}
      {images.length > 0 && (
        <ul className="bug-thumbs" aria-label="Images">
          {images.map((attachment) => (
            <Thumbnail key={attachment.id} attachment={attachment} load={load} />
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <ul className="portal-rows bug-files" aria-label="Files">
          {files.map((attachment) => (
            <DownloadRow key={attachment.id} attachment={attachment} load={load} />
          ))}
        </ul>
      )}
      {onUpload && <AttachmentUpload onUpload={onUpload} />}
    </Card>
  );
}
