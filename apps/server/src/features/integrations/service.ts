import { randomBytes } from 'node:crypto';
import {
  type BugStatus,
  bugPath,
  connectBodies,
  type Integration,
  type IntegrationKind,
  type TestDeliveryResponse,
  type WebhookPayload,
} from '@fullstop/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type Env, publicUrl } from '../../config/env.ts';
import type { Db } from '../../db/database.ts';
import { ValidationError } from '../../lib/errors.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import type { BugChange, BugChanges } from '../../plugins/app/bug-changes.ts';
import { openApiKey, sealApiKey } from '../../lib/api-keys.ts';
import { outboundUrlRefusal as trackerUrlRefusal } from '../../lib/outbound-http.ts';
import { AnswerError, DeliveryOutbox, problemOf, UndeliverableError } from '../outbox/index.ts';
import {
  type BugRow,
  deleteIntegration,
  type DeliveryRow,
  enqueueDelivery,
  findBug,
  findBugExport,
  findIntegration,
  type IntegrationRow,
  insertBugExport,
  integrationOutboxTables,
  issueCreationQueued,
  listIntegrations,
  listSyncableExports,
  moveBugStatus,
  setExportState,
  upsertIntegration,
} from './repository.ts';
import { type ExportedBug, githubClient, jiraClient, sendWebhook, type TrackerClient } from './trackers.ts';

/** A bug in one of these moves to fixed when its exported issue is closed (the bugs' "fixed" answer). */
export const SYNCABLE_STATUSES: readonly BugStatus[] = ['accepted', 'open', 'reopened'];
const TRACKER_NAME = { github: 'GitHub', jira: 'Jira' } as const;
const WORK_POLL_MS = 5000;

export interface IntegrationsDeps {
  db: Db;
  keys: ServerKeys;
  env: Env;
  log: FastifyBaseLogger;
  bugChanges: BugChanges;
}

/** `••••` and the last 4 characters. */
export function maskSecret(hint: string): string {
  return `••••${hint}`;
}

/**
 * Where a connection's secret may go: the origin it is sent to and, for Jira, the account it belongs to
 * (decision 0076). A stored secret is used only while its connection still points there.
 */
export function bindingOf(kind: IntegrationKind, config: Record<string, string>, githubApiUrl: string): string {
  if (kind === 'jira') return `jira ${new URL(config.siteUrl!).origin} ${config.email!.toLowerCase()}`;
  return kind === 'github' ? `github ${new URL(githubApiUrl).origin}` : `webhook ${new URL(config.url!).origin}`;
}

export function integrationView(row: IntegrationRow): Integration {
  return { kind: row.kind, config: row.config, secretHint: maskSecret(row.secretHint), connectedAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/**
 * Connections to the client's tracker, the deliveries to them (retried with exponential backoff until delivered
 * or INTEGRATIONS_MAX_ATTEMPTS), and the sync that reads exported issues back. Secrets are opened only to call.
 */
export class IntegrationsService {
  #timers: NodeJS.Timeout[] = [];
  /** "bugId:kind" of changes the sync itself made from that tracker: not told back to it. */
  readonly #fromTracker = new Set<string>();
  readonly #outbox: DeliveryOutbox<DeliveryRow>;

  constructor(private readonly deps: IntegrationsDeps) {
    this.#outbox = new DeliveryOutbox({
      ...deps,
      ...integrationOutboxTables,
      send: (delivery) => this.#deliver(delivery),
      says: { attemptFailed: 'a tracker delivery failed', passFailed: 'tracker deliveries failed' },
    });
  }

  get #allowPrivate(): boolean {
    return this.deps.env.ENGINE_ALLOW_PRIVATE_TARGETS;
  }

  async list(clientId: string): Promise<Integration[]> {
    return (await listIntegrations(this.deps.db, clientId)).map(integrationView);
  }

  /** The stored secret, opened only while the connection still points where it was given for. */
  #storedSecret(row: IntegrationRow): string {
    const now = bindingOf(row.kind, row.config, this.deps.env.GITHUB_API_URL);
    if (row.secretBoundTo !== null && row.secretBoundTo !== now) {
      throw new UndeliverableError(`the stored ${row.kind === 'webhook' ? 'secret' : 'token'} was given for another address or account: connect again with it`);
    }
    return openApiKey(this.deps.keys, row.secret);
  }

  #client(row: IntegrationRow, secret = this.#storedSecret(row)): TrackerClient {
    const c = row.config;
    return row.kind === 'github'
      ? githubClient(this.deps.env.GITHUB_API_URL, { owner: c.owner!, repo: c.repo! }, secret, this.#allowPrivate)
      : jiraClient({ siteUrl: c.siteUrl!, projectKey: c.projectKey!, email: c.email! }, secret, this.#allowPrivate);
  }

  /** Connects or replaces; GitHub and Jira settings are proven by one call. `secret`: a new webhook secret, once. */
  async connect(clientId: string, kind: IntegrationKind, body: unknown): Promise<{ integration: Integration; secret?: string }> {
    const parsed = connectBodies[kind].safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ValidationError(issue.message, issue.path.join('.') || undefined);
    }
    const existing = await findIntegration(this.deps.db, clientId, kind);
    const input = parsed.data as Record<string, unknown>;
    const urlField = kind === 'webhook' ? 'url' : kind === 'jira' ? 'siteUrl' : null;
    const target = urlField ? String(input[urlField]) : this.deps.env.GITHUB_API_URL;
    const refusal = await trackerUrlRefusal(target, this.#allowPrivate);
    if (refusal) throw new ValidationError(`${urlField ?? 'The GitHub API address'} is refused: ${refusal}`, urlField ?? undefined);

    let secret: string;
    let shown: string | undefined;
    const config: Record<string, string> = {};
    if (kind === 'webhook') config.url = String(input.url);
    else for (const [k, v] of Object.entries(input)) if (k !== 'token' && typeof v === 'string') config[k] = k === 'siteUrl' ? new URL(v).origin : v;
    const boundTo = bindingOf(kind, config, this.deps.env.GITHUB_API_URL);
    // A stored secret stays with the origin and account it was given for (decision 0076).
    const keeps = existing !== null && (existing.secretBoundTo ?? bindingOf(kind, existing.config, this.deps.env.GITHUB_API_URL)) === boundTo;
    if (kind === 'webhook') {
      // Our own signing secret: a new origin gets a new one (shown once), so no receiver holds another's.
      if (keeps && !input.rotateSecret) secret = openApiKey(this.deps.keys, existing.secret);
      else shown = secret = `whsec_${randomBytes(24).toString('hex')}`;
    } else {
      const given = input.token as string | undefined;
      if (!given && !existing) throw new ValidationError('token is required', 'token');
      if (!given && !keeps) throw new ValidationError(`token is required again: the stored token was given for ${this.#changed(kind, existing!, config)} only`, 'token');
      secret = given ?? openApiKey(this.deps.keys, existing!.secret);
      await this.#prove(kind, config, secret);
    }
    const row = await upsertIntegration(this.deps.db, { clientId, kind, config, secret: sealApiKey(this.deps.keys, secret), secretHint: secret.slice(-4), secretBoundTo: boundTo });
    return { integration: integrationView(row), ...(shown ? { secret: shown } : {}) };
  }

  /** What the stored token was given for, in the words of the 400 that asks for it again. */
  #changed(kind: IntegrationKind, existing: IntegrationRow, config: Record<string, string>): string {
    if (kind === 'github') return `the GitHub API at ${existing.secretBoundTo?.split(' ')[1] ?? 'another address'}`;
    const was = existing.config;
    const parts = [];
    if (new URL(was.siteUrl!).origin !== config.siteUrl) parts.push(`siteUrl ${new URL(was.siteUrl!).origin}`);
    if (was.email?.toLowerCase() !== config.email?.toLowerCase()) parts.push(`email ${was.email}`);
    return parts.length ? parts.join(' and ') : 'another address';
  }

  async #prove(kind: 'github' | 'jira', config: Record<string, string>, secret: string): Promise<void> {
    const name = TRACKER_NAME[kind];
    const client = this.#client({ kind, config } as IntegrationRow, secret);
    let status: number;
    try {
      status = (await client.check()).status;
    } catch (err) {
      throw new ValidationError(`${name} could not be reached: ${(err as Error).message}`, kind === 'jira' ? 'siteUrl' : undefined);
    }
    if (status === 401 || status === 403) throw new ValidationError(`${name} refused the token (HTTP ${status}): check it and its permissions`, 'token');
    if (status === 404) {
      throw kind === 'github'
        ? new ValidationError(`GitHub has no repository ${config.owner}/${config.repo} that this token can see`, 'repo')
        : new ValidationError(`Jira has no project ${config.projectKey} on ${config.siteUrl} that this account can see`, 'projectKey');
    }
    if (status < 200 || status >= 300) throw new ValidationError(`${name} answered HTTP ${status} when the settings were checked`);
  }

  async disconnect(clientId: string, kind: IntegrationKind): Promise<boolean> {
    return deleteIntegration(this.deps.db, clientId, kind);
  }

  /** One delivery now, recorded like any other, never retried: a signed test event, or a read of the repository/project. */
  async test(clientId: string, kind: IntegrationKind, row: IntegrationRow): Promise<TestDeliveryResponse> {
    const now = new Date().toISOString();
    const payload = kind === 'webhook' ? { body: JSON.stringify({ event: 'test', bug: null, at: now }) } : {};
    const delivery = await enqueueDelivery(this.deps.db, { clientId, kind, bugId: null, event: 'test', payload });
    const { delivered, ...outcome } = await this.#outbox.attemptOnce(delivery, async () => {
      const res = kind === 'webhook' ? await sendWebhook(row.config.url!, this.#storedSecret(row), String(payload.body), this.#allowPrivate) : await this.#client(row).check();
      if (res.status < 200 || res.status >= 300) throw new AnswerError(res.status, `answered HTTP ${res.status}`);
      return res.status;
    });
    const name = kind === 'webhook' ? 'Your webhook' : TRACKER_NAME[kind];
    return { delivered, statusCode: outcome.statusCode, message: delivered ? `${name} answered HTTP ${outcome.statusCode}` : `${name} ${outcome.error}` };
  }

  #exported(bug: BugRow): ExportedBug {
    return {
      id: bug.id,
      number: bug.number,
      title: bug.title,
      severity: bug.severity,
      status: bug.status,
      url: bug.url,
      steps: bug.steps,
      expected: bug.expected,
      actual: bug.actual,
      portalUrl: `${publicUrl(this.deps.env)}${bugPath(bug.id)}`,
    };
  }

  /** The bugs feature's announcement: what each of the client's connections is sent. */
  async onBugChange(change: BugChange): Promise<void> {
    if (change.kind === 'fields' || change.to === 'draft') return;
    const bug = await findBug(this.deps.db, change.bugId);
    if (!bug || bug.status === 'draft' || bug.clientId !== change.clientId) return;
    const connections = await listIntegrations(this.deps.db, bug.clientId);
    let queued = false;
    for (const row of connections) {
      if (row.kind === 'webhook') {
        const payload: WebhookPayload = {
          event: change.kind === 'comment' ? 'bug.commented' : 'bug.status-changed',
          bug: { id: bug.id, number: bug.number, title: bug.title, severity: bug.severity, status: change.kind === 'comment' ? bug.status : change.to, url: this.#exported(bug).portalUrl },
          at: new Date().toISOString(),
        };
        await enqueueDelivery(this.deps.db, { clientId: bug.clientId, kind: 'webhook', bugId: bug.id, event: payload.event, payload: { body: JSON.stringify(payload) } });
        queued = true;
        continue;
      }
      if (change.kind === 'comment') continue;
      if (this.#fromTracker.delete(`${bug.id}:${row.kind}`)) continue;
      const exported = (await findBugExport(this.deps.db, bug.id, row.kind)) ?? (await issueCreationQueued(this.deps.db, bug.id, row.kind));
      if (change.to === 'accepted' && !exported) {
        await enqueueDelivery(this.deps.db, { clientId: bug.clientId, kind: row.kind, bugId: bug.id, event: 'bug.issue-created', payload: {} });
        queued = true;
      } else if (exported && change.kind === 'status') {
        await enqueueDelivery(this.deps.db, { clientId: bug.clientId, kind: row.kind, bugId: bug.id, event: 'bug.status-changed', payload: { from: change.from, to: change.to } });
        queued = true;
      }
    }
    if (queued) this.#outbox.kick();
  }

  /** Works every delivery due now (the outbox's pass). */
  drain(): Promise<void> {
    return this.#outbox.drain();
  }

  /** A queued delivery, sent through the connection as it is now (a removed connection is not retried). */
  async #deliver(delivery: DeliveryRow): Promise<number | null> {
    const row = await findIntegration(this.deps.db, delivery.clientId, delivery.kind);
    if (!row) throw new UndeliverableError('the connection was removed');
    return this.#send(delivery, row);
  }

  /** One attempt; the HTTP status on success, throws otherwise. */
  async #send(delivery: DeliveryRow, row: IntegrationRow): Promise<number | null> {
    if (row.kind === 'webhook') {
      const res = await sendWebhook(row.config.url!, this.#storedSecret(row), String(delivery.payload.body), this.#allowPrivate);
      if (res.status < 200 || res.status >= 300) throw new AnswerError(res.status, `the webhook answered HTTP ${res.status}`);
      return res.status;
    }
    const bug = delivery.bugId ? await findBug(this.deps.db, delivery.bugId) : null;
    if (!bug) throw new Error('the bug no longer exists');
    const client = this.#client(row);
    const existing = await findBugExport(this.deps.db, bug.id, row.kind);
    if (delivery.event === 'bug.issue-created') {
      if (existing) return null;
      const issue = await client.createIssue(this.#exported(bug));
      await insertBugExport(this.deps.db, { bugId: bug.id, clientId: bug.clientId, kind: row.kind, ...issue });
      return 201;
    }
    if (!existing) throw new Error('the issue is not created yet');
    const { from, to } = delivery.payload as { from: BugStatus | null; to: BugStatus };
    return (await client.statusChanged(existing.externalId, this.#exported(bug), from, to)).status;
  }

  /** Reads each exported issue of a bug still open on our side; a done issue moves the bug to fixed. */
  async sync(clientId: string | null): Promise<{ checked: number; updated: number; errors: string[] }> {
    const exports = await listSyncableExports(this.deps.db, clientId, SYNCABLE_STATUSES);
    const result = { checked: 0, updated: 0, errors: [] as string[] };
    const connections = new Map<string, IntegrationRow | null>();
    for (const exp of exports) {
      if (exp.kind === 'webhook') continue;
      const key = `${exp.clientId}:${exp.kind}`;
      if (!connections.has(key)) connections.set(key, await findIntegration(this.deps.db, exp.clientId, exp.kind));
      const row = connections.get(key);
      if (!row) continue;
      const name = TRACKER_NAME[exp.kind];
      try {
        const state = await this.#client(row).readState(exp.externalId);
        result.checked += 1;
        await setExportState(this.deps.db, exp.id, state.state);
        if (!state.done) continue;
        const from = await moveBugStatus(this.deps.db, {
          bugId: exp.bugId,
          from: SYNCABLE_STATUSES,
          to: 'fixed',
          action: 'fixed',
          by: name,
          reason: `The ${name} issue ${exp.reference} was ${exp.kind === 'github' ? 'closed' : `moved to ${state.state}`}`,
        });
        if (!from) continue;
        result.updated += 1;
        this.#fromTracker.add(`${exp.bugId}:${exp.kind}`);
        await this.deps.bugChanges.emit({ bugId: exp.bugId, clientId: exp.clientId, kind: 'status', from, to: 'fixed' });
        this.#fromTracker.delete(`${exp.bugId}:${exp.kind}`);
      } catch (err) {
        result.errors.push(`${name} ${exp.reference}: ${problemOf(err).error}`);
      }
    }
    return result;
  }

  /** The loops of a worker process: due deliveries every few seconds, the sync every INTEGRATIONS_SYNC_INTERVAL. */
  start(): void {
    this.#outbox.start();
    const every = (ms: number, job: () => Promise<unknown>, what: string) => {
      const timer = setInterval(() => void job().catch((err: unknown) => this.deps.log.error({ err }, what)), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(WORK_POLL_MS, () => this.drain(), 'tracker deliveries failed');
    if (this.deps.env.INTEGRATIONS_SYNC_INTERVAL > 0) every(this.deps.env.INTEGRATIONS_SYNC_INTERVAL * 1000, () => this.sync(null), 'tracker sync failed');
    this.#outbox.kick();
  }

  async stop(): Promise<void> {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    await this.#outbox.stop();
  }
}
