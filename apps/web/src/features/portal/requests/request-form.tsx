import { clientRequestKind, createClientRequest, requestAttachmentProblem, type ClientRequestKind } from '@fullstop/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { describeError } from '@/lib/http-client.ts';
import { SubmitRow } from '../components/busy-button.tsx';
import { Card, CardForm } from '../components/card.tsx';
import { Notice, type NoticeText } from '../components/notice.tsx';
import { uploadRequestFile } from '../components/requests/request-files.ts';
import { KIND_HINTS, KIND_LABELS } from '../components/requests/request-labels.ts';
import { ChoiceField, TextAreaField, TextField } from '../components/text-field.tsx';
import { ViewerNote } from '../components/viewer-note.tsx';
import { requestsApi, useCreateRequestMutation } from './requests-api.ts';
import { useAppDispatch } from '../store/hooks.ts';
import { useViewerReason } from '../store/viewer.ts';

type FieldErrors = Partial<Record<'kind' | 'title' | 'details' | 'file', string>>;

const TITLE_ID = 'request-form-title';

/** The New request card: the form, or for a viewer (who may only read) why there is none. */
export function RequestForm() {
  const viewerReason = useViewerReason('send requests');
  if (!viewerReason) return <NewRequestForm />;
  return (
    <Card id={TITLE_ID} title="New request">
      <ViewerNote note={viewerReason} />
    </Card>
  );
}

/** The kind the address asks for (`?kind=question` from the first-day card), else a new test. */
function kindOf(params: URLSearchParams): ClientRequestKind {
  const asked = clientRequestKind.safeParse(params.get('kind'));
  return asked.success ? asked.data : 'new-test';
}

function NewRequestForm() {
  const [params] = useSearchParams();
  const [kind, setKind] = useState<ClientRequestKind>(() => kindOf(params));
  const [title, setTitle] = useState('');
  const [details, setDetails] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<NoticeText | null>(null);
  const [create, { isLoading }] = useCreateRequestMutation();
  const [uploading, setUploading] = useState(false);
  const dispatch = useAppDispatch();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = createClientRequest.safeParse({ kind, title, details });
    const next: FieldErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        next[field] ??= issue.message.charAt(0).toUpperCase() + issue.message.slice(1) + '.';
      }
    }
    const fileProblem = file ? requestAttachmentProblem(file) : null;
    if (fileProblem) next.file = fileProblem;
    if (!parsed.success || fileProblem) {
      setErrors(next);
      setNotice(null);
      return;
    }
    setErrors({});
    try {
      const created = await create(parsed.data).unwrap();
      setTitle('');
      setDetails('');
      let text = 'Request sent. We will get back to you within 48 hours.';
      let tone: NoticeText['tone'] = 'success';
      if (file) {
        setUploading(true);
        try {
          await uploadRequestFile({ id: created.id, operator: false }, file, null);
          dispatch(requestsApi.util.invalidateTags(['Requests']));
        } catch (error) {
          tone = 'error';
          text = `Request sent, but ${file.name} was not attached: ${describeError(error)}`;
        } finally {
          setUploading(false);
          setFile(null);
          if (fileInput.current) fileInput.current.value = '';
        }
      }
      setNotice({ tone, text });
    } catch (error) {
      const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : 'Please try again later.';
      setNotice({ tone: 'error', text: `Could not send the request: ${message}` });
    }
  }

  const busy = isLoading || uploading;
  return (
    <CardForm id={TITLE_ID} title="New request" onSubmit={onSubmit}>
      <ChoiceField id="request-kind" label="Type" choices={clientRequestKind.options} labels={KIND_LABELS} hints={KIND_HINTS} value={kind} onValueChange={setKind} />
      <TextField id="request-title" label="Title" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} error={errors.title} />
      <TextAreaField
        id="request-details"
        label="Details"
        rows={5}
        value={details}
        maxLength={5000}
        onChange={(e) => setDetails(e.target.value)}
        error={errors.details}
      />
      <div className="portal-field">
        <label htmlFor="request-file">Attachment (optional)</label>
        <input
          ref={fileInput}
          id="request-file"
          type="file"
          aria-invalid={errors.file ? true : undefined}
          aria-describedby="request-file-hint"
          accept="image/*,video/mp4,video/webm,video/quicktime,application/pdf,text/plain,text/csv,.csv,.zip,application/zip"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <p id="request-file-hint" className="portal-muted portal-field__hint">
          A screenshot, a video, a PDF, a text or CSV file, or a zip, up to 50 MB.
        </p>
        {errors.file && <Notice tone="error">{errors.file}</Notice>}
      </div>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      <SubmitRow busy={busy} busyText="Sending…">Send request</SubmitRow>
    </CardForm>
  );
}
