import type { BugStatus } from '@fullstop/contracts';
import { type OutboundResponse as TrackerResponse, outboundRequest as trackerRequest, sendSignedWebhook } from '../../lib/outbound-http.ts';
import { AnswerError } from '../outbox/index.ts';

export { webhookSignature } from '../../lib/outbound-http.ts';

// The three trackers' APIs: GitHub Issues (REST v3), Jira Cloud (REST v3), and the client's signed webhook.

/** A bug as it is written into a tracker. */
export interface ExportedBug {
  id: string;
  number: number;
  title: string;
  severity: string;
  status: BugStatus;
  url: string;
  steps: string[];
  expected: string;
  actual: string;
  /** The bug in the portal. */
  portalUrl: string;
}

export function issueTitle(bug: ExportedBug): string {
  return `BUG-${bug.number}: ${bug.title}`;
}

/** The issue's text: severity, URL, steps, expected, actual, and the link back to the portal. */
export function issueBodyLines(bug: ExportedBug): string[] {
  const lines = [`Severity: ${bug.severity}`];
  if (bug.url) lines.push(`URL: ${bug.url}`);
  if (bug.steps.length) lines.push('', 'Steps to reproduce:', ...bug.steps.map((s, i) => `${i + 1}. ${s}`));
  if (bug.expected) lines.push('', `Expected: ${bug.expected}`);
  if (bug.actual) lines.push('', `Actual: ${bug.actual}`);
  lines.push('', `Reported by Fullstop QA: ${bug.portalUrl}`);
  return lines;
}

function expect(res: TrackerResponse, ok: number[], what: string): TrackerResponse {
  if (ok.includes(res.status)) return res;
  throw new AnswerError(res.status, `${what}: HTTP ${res.status}`);
}

export interface CreatedIssue {
  externalId: string;
  reference: string;
  url: string | null;
}

export interface TrackerClient {
  /** One read that proves the settings and the token: 401/404 become a clear message. */
  check(): Promise<TrackerResponse>;
  createIssue(bug: ExportedBug): Promise<CreatedIssue>;
  /** Tells the issue the bug's status changed (a comment; GitHub also closes or reopens). */
  statusChanged(externalId: string, bug: ExportedBug, from: BugStatus | null, to: BugStatus): Promise<TrackerResponse>;
  /** Whether the issue is done (GitHub: closed; Jira: status category "done"), and its state's name. */
  readState(externalId: string): Promise<{ done: boolean; state: string }>;
}

const CLOSING: Partial<Record<BugStatus, 'completed' | 'not_planned'>> = { verified: 'completed', 'wont-fix': 'not_planned', 'not-a-bug': 'not_planned' };

export function githubClient(apiBase: string, config: { owner: string; repo: string }, token: string, allowPrivate: boolean): TrackerClient {
  const base = `${apiBase.replace(/\/+$/, '')}/repos/${encodeURIComponent(config.owner)}/${encodeURIComponent(config.repo)}`;
  const call = (method: string, path: string, body?: unknown) =>
    trackerRequest(`${base}${path}`, {
      method,
      allowPrivate,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    check: () => call('GET', ''),
    async createIssue(bug) {
      const res = expect(await call('POST', '/issues', { title: issueTitle(bug), body: issueBodyLines(bug).join('\n') }), [201], 'GitHub did not create the issue');
      const issue = res.json<{ number?: number; html_url?: string }>();
      if (!issue?.number) throw new AnswerError(res.status, 'GitHub answered without an issue number');
      return { externalId: String(issue.number), reference: `#${issue.number}`, url: issue.html_url ?? null };
    },
    async statusChanged(externalId, bug, from, to) {
      const res = expect(
        await call('POST', `/issues/${externalId}/comments`, { body: `Fullstop QA: BUG-${bug.number} is now **${to}**${from ? ` (was ${from})` : ''}.\n\n${bug.portalUrl}` }),
        [201],
        'GitHub did not take the comment',
      );
      const reason = CLOSING[to];
      if (reason) return expect(await call('PATCH', `/issues/${externalId}`, { state: 'closed', state_reason: reason }), [200], 'GitHub did not close the issue');
      if (to === 'reopened') return expect(await call('PATCH', `/issues/${externalId}`, { state: 'open' }), [200], 'GitHub did not reopen the issue');
      return res;
    },
    async readState(externalId) {
      const res = expect(await call('GET', `/issues/${externalId}`), [200], 'GitHub did not give the issue');
      const state = res.json<{ state?: string }>()?.state ?? 'unknown';
      return { done: state === 'closed', state };
    },
  };
}

/** Jira's rich text (Atlassian Document Format): one paragraph per line. */
function adf(lines: string[]) {
  return {
    type: 'doc',
    version: 1,
    content: lines.filter((l) => l !== '').map((l) => ({ type: 'paragraph', content: [{ type: 'text', text: l }] })),
  };
}

export function jiraClient(config: { siteUrl: string; projectKey: string; email: string }, token: string, allowPrivate: boolean): TrackerClient {
  const site = config.siteUrl.replace(/\/+$/, '');
  const auth = `Basic ${Buffer.from(`${config.email}:${token}`).toString('base64')}`;
  const call = (method: string, path: string, body?: unknown) =>
    trackerRequest(`${site}/rest/api/3${path}`, {
      method,
      allowPrivate,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    check: () => call('GET', `/project/${encodeURIComponent(config.projectKey)}`),
    async createIssue(bug) {
      const res = expect(
        await call('POST', '/issue', {
          fields: { project: { key: config.projectKey }, summary: issueTitle(bug), issuetype: { name: 'Bug' }, description: adf(issueBodyLines(bug)) },
        }),
        [200, 201],
        'Jira did not create the issue',
      );
      const key = res.json<{ key?: string }>()?.key;
      if (!key) throw new AnswerError(res.status, 'Jira answered without an issue key');
      return { externalId: key, reference: key, url: `${site}/browse/${key}` };
    },
    async statusChanged(externalId, bug, from, to) {
      return expect(
        await call('POST', `/issue/${encodeURIComponent(externalId)}/comment`, {
          body: adf([`Fullstop QA: BUG-${bug.number} is now ${to}${from ? ` (was ${from})` : ''}.`, bug.portalUrl]),
        }),
        [200, 201],
        'Jira did not take the comment',
      );
    },
    async readState(externalId) {
      const res = expect(await call('GET', `/issue/${encodeURIComponent(externalId)}?fields=status`), [200], 'Jira did not give the issue');
      const status = res.json<{ fields?: { status?: { name?: string; statusCategory?: { key?: string } } } }>()?.fields?.status;
      return { done: status?.statusCategory?.key === 'done', state: status?.name ?? 'unknown' };
    },
  };
}

/** POSTs one signed JSON body to the client's webhook; the timestamp is the attempt's own. */
export async function sendWebhook(url: string, secret: string, body: string, allowPrivate: boolean): Promise<TrackerResponse> {
  return sendSignedWebhook(url, secret, body, allowPrivate);
}
