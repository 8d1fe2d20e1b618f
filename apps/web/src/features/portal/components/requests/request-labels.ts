import {
  CLIENT_REQUEST_KIND_LABELS,
  CLIENT_REQUEST_STATUS_LABELS,
  requestAttachmentProblem,
  requestReplyBody,
  type ClientRequest,
  type ClientRequestKind,
  type ClientRequestStatus,
  type RequestSide,
} from '@fullstop/contracts';

export const KIND_LABELS: Record<ClientRequestKind, string> = CLIENT_REQUEST_KIND_LABELS;
export const STATUS_LABELS: Record<ClientRequestStatus, string> = CLIENT_REQUEST_STATUS_LABELS;

/** What each kind is for, addressed to the client, shown under the kind in the form. */
export const KIND_HINTS: Record<ClientRequestKind, string> = {
  'new-test': 'We automate a new scenario: tell us the feature, where it lives, and what must keep working.',
  'test-change': 'Your app changed and a test must follow: name the test and describe what changed.',
  'manual-test': 'We test by hand what is not automated: tell us what to check and on which devices or browsers.',
  retest: 'A fixed issue checked again after your deployment, free within scope: name the issue and the release.',
  question: 'Anything about your tests, runs or reports: our QA team answers here.',
};

/** The reply box's check before sending: null when the reply may go, else the sentence to show. */
export function replyProblem(body: string, file: File | null): string | null {
  const parsed = requestReplyBody.safeParse({ body });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'the reply is not valid';
    return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
  }
  return file ? requestAttachmentProblem(file) : null;
}

/** One line under a request's title: its kind, when it was sent, and who answered last. */
export function requestSummary(request: Pick<ClientRequest, 'kind' | 'createdAt' | 'lastReplySide' | 'lastReplyAt'>, viewer: RequestSide, format: (iso: string) => string): string {
  const parts = [KIND_LABELS[request.kind], `sent ${format(request.createdAt)}`];
  if (request.lastReplySide && request.lastReplyAt) {
    const who = request.lastReplySide === viewer ? 'you' : viewer === 'client' ? 'QA team' : 'client';
    parts.push(`last reply by ${who} ${format(request.lastReplyAt)}`);
  }
  return parts.join(' · ');
}
