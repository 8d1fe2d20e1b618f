import { MANUAL_EVIDENCE_MAX_BYTES, MANUAL_EVIDENCE_PER_STEP, MANUAL_EVIDENCE_TYPES, MANUAL_EVIDENCE_TYPES_TEXT, type ManualEvidenceItem } from '@fullstop/contracts';
import { useId, useState, type ChangeEvent } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { formatBytes } from '@/lib/format-bytes.ts';
import { Notice } from '../../components/notice.tsx';
import { useBlobUrl } from '../../components/use-blob-url.ts';
import { fetchManualEvidence, useAddManualEvidenceMutation, useRemoveManualEvidenceMutation, type StepRef } from './manual-api.ts';

const isImage = (item: ManualEvidenceItem) => item.contentType.startsWith('image/');
/** "50 MB": the limit as the bug attachments' form says it (binary megabytes). */
const MAX_SIZE_TEXT = `${Math.round(MANUAL_EVIDENCE_MAX_BYTES / 1_048_576)} MB`;

/** Why a chosen file cannot go to a step that already has `count` files, or null when it can. */
export function evidenceProblem(file: Pick<File, 'name' | 'type' | 'size'>, count: number): string | null {
  if (!(MANUAL_EVIDENCE_TYPES as readonly string[]).includes(file.type)) return `${file.name} is not one of the files a step takes (${MANUAL_EVIDENCE_TYPES_TEXT}).`;
  if (file.size > MANUAL_EVIDENCE_MAX_BYTES) return `${file.name} is ${formatBytes(file.size)}: a file can be at most ${MAX_SIZE_TEXT}.`;
  if (count >= MANUAL_EVIDENCE_PER_STEP) return `${file.name} was not added: a step takes at most ${MANUAL_EVIDENCE_PER_STEP} files.`;
  return null;
}

/** An image as a thumbnail, read as a blob with the operator's session; a click opens it whole in a new tab. */
function Thumbnail({ stepRef, item }: { stepRef: StepRef; item: ManualEvidenceItem }) {
  const { id, step } = stepRef;
  const { url, failed } = useBlobUrl(() => fetchManualEvidence({ id, step }, item.id), `${id}/${step}/${item.id}`);
  if (url) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" className="manual-thumb">
        <img src={url} alt={item.name} />
      </a>
    );
  }
  return <span className="manual-thumb manual-thumb--empty">{failed ? 'Could not load this image.' : 'Loading…'}</span>;
}

interface StepEvidenceProps {
  stepRef: StepRef;
  evidence: ManualEvidenceItem[];
  /** The caller holds the work: files can be added and removed. */
  editable: boolean;
}

/** A step's screenshots and recordings: images as thumbnails, videos by name; each file chosen is sent at once. */
export function StepEvidence({ stepRef, evidence, editable }: StepEvidenceProps) {
  const inputId = useId();
  const [add] = useAddManualEvidenceMutation();
  const [remove] = useRemoveManualEvidenceMutation();
  const [sending, setSending] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const full = evidence.length >= MANUAL_EVIDENCE_PER_STEP;
  if (!editable && evidence.length === 0) return null;

  async function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    const found: string[] = [];
    let count = evidence.length;
    for (const file of files) {
      const problem = evidenceProblem(file, count);
      if (problem) {
        found.push(problem);
        continue;
      }
      setSending(file.name);
      try {
        await add({ ...stepRef, file }).unwrap();
        count++;
      } catch (failure) {
        found.push(`${file.name}: ${failureMessage(failure, 'it could not be sent. Please try again.')}`);
      }
    }
    setSending(null);
    setProblems(found);
  }

  async function onRemove(item: ManualEvidenceItem) {
    setRemoving(item.id);
    try {
      await remove({ ...stepRef, evidenceId: item.id }).unwrap();
      setProblems([]);
    } catch (failure) {
      setProblems([`${item.name} could not be removed: ${failureMessage(failure, 'please try again.')}`]);
    } finally {
      setRemoving(null);
    }
  }

  return (
    <div className="manual-evidence">
      {evidence.length > 0 && (
        <ul className="manual-evidence__list" aria-label={`Evidence of step ${stepRef.step}`}>
          {evidence.map((item) => (
            <li key={item.id} className="manual-evidence__item">
              {isImage(item) ? <Thumbnail stepRef={stepRef} item={item} /> : <span className="manual-thumb manual-thumb--video" aria-hidden="true">▶</span>}
              <span className="manual-evidence__name">
                {item.name}
                <span className="ops-muted">{formatBytes(item.size)}</span>
              </span>
              {editable && (
                <button
                  type="button"
                  className="btn btn--ghost portal-btn-sm"
                  disabled={removing === item.id}
                  onClick={() => void onRemove(item)}
                  aria-label={`Remove ${item.name}`}
                >
                  {removing === item.id ? 'Removing…' : 'Remove'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable &&
        (full ? (
          <p className="portal-muted">This step has {MANUAL_EVIDENCE_PER_STEP} files, the most it takes: remove one to add another.</p>
        ) : (
          <div className="portal-field manual-evidence__add">
            <label htmlFor={inputId}>Add screenshots or a screen recording</label>
            <input
              id={inputId}
              type="file"
              accept="image/*,video/*"
              multiple
              disabled={sending !== null}
              aria-describedby={`${inputId}-hint`}
              onChange={(event) => void onChoose(event)}
            />
            <p id={`${inputId}-hint`} className="portal-muted portal-field__hint">
              {MANUAL_EVIDENCE_TYPES_TEXT}, up to {MAX_SIZE_TEXT} each; at most {MANUAL_EVIDENCE_PER_STEP} files per step. Each
              file is sent as soon as you choose it.
            </p>
          </div>
        ))}
      <p className="manual-evidence__sending" role="status">
        {sending ? `Sending ${sending}…` : ''}
      </p>
      {problems.length > 0 && (
        <Notice tone="error" as="div">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </Notice>
      )}
    </div>
  );
}
