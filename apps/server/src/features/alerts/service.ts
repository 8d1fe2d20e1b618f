import { randomBytes } from 'node:crypto';
import {
  ALERT_RULES,
  paths,
  type AlertChannel,
  type AlertChannelKind,
  type AlertRule,
  type AlertTestResponse,
  type CreateAlertChannelBody,
  historyRunPath,
  type UpdateAlertChannelBody,
} from '@fullstop/contracts';
import type { Finding } from '@fullstop/engine';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { type Env, publicUrl } from '../../config/env.ts';
import type { Db } from '../../db/database.ts';
import { AppError, TooManyRequestsError, ValidationError } from '../../lib/errors.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { outboundRequest, outboundUrlRefusal, sendSignedWebhook } from '../../lib/outbound-http.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { openApiKey, sealApiKey } from '../../lib/api-keys.ts';
import { getClient } from '../accounts/index.ts';
import { takeAttempt } from '../auth/index.ts';
import { falsePositiveMatcher } from '../findings/index.ts';
import { AnswerError, DeliveryOutbox, UndeliverableError } from '../outbox/index.ts';
import { type AlertMessage, emailOf, webhookJson } from './messages.ts';
import {
  type AlertDeliveryRow,
  alertOutboxTables,
  type ChannelRow,
  claimRun,
  confirmChannel,
  enqueueAlertDelivery,
  flakyTestNames,
  insertChannel,
  insertEvent,
  listChannels,
  listUnsealedChannels,
  previousResult,
  type RunRow,
  type RunTestRow,
  runTestsOf,
  sealChannelTarget,
  unevaluatedRuns,
  updateChannel,
} from './repository.ts';

const WORK_POLL_MS = 5000;
const USER_AGENT = 'FullstopQA-Alerts';
const KIND_NAMES: Record<AlertChannelKind, string> = { email: 'The e-mail', slack: 'Slack', teams: 'Microsoft Teams', webhook: 'Your webhook' };
const FAILING = new Set(['failed', 'error']);
const emailAddress = z.email();
/** How long an e-mail channel's confirmation link works. */
const CONFIRM_TTL_HOURS = 72;
/** The kinds whose URL is itself the credential: sealed, shown as a hint (decision 0076). */
const SEALED_KINDS = new Set<AlertChannelKind>(['slack', 'teams']);

/** What is shown of a Slack or Teams URL: its origin and last 4 characters, enough to tell two apart. */
export function urlHint(url: string): string {
  return `${new URL(url).origin}/…/${url.slice(-4)}`;
}

/** An e-mail address is sent nothing until its owner confirmed it. */
const unconfirmed = (c: ChannelRow) => c.kind === 'email' && c.confirmedAt === null;

interface Confirmation {
  token: string;
  set: { confirmedAt: null; confirmTokenHash: string; confirmExpiresAt: Date; confirmSentAt: null };
}

export interface AlertsDeps {
  db: Db;
  keys: ServerKeys;
  env: Env;
  log: FastifyBaseLogger;
  mailer: Mailer;
}

/** An alert a run raised, before it is fanned out to the channels subscribed to its rule. */
interface RaisedAlert {
  rule: AlertRule;
  subject: string;
  state: string;
  title: string;
  text: string;
}

export function channelView(row: ChannelRow): AlertChannel {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    target: row.target,
    enabled: row.enabled,
    confirmed: row.kind !== 'email' || row.confirmedAt !== null,
    confirmationSentAt: row.kind === 'email' && !row.confirmedAt ? (row.confirmSentAt?.toISOString() ?? null) : null,
    rules: row.rules,
    secretHint: row.secretHint ? `••••${row.secretHint}` : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Alerts: evaluates every finished run exactly once (from the database, whichever process finished it), raises
 * each alert once per rule, subject and run, and delivers it to the client's channels subscribed to the rule,
 * retried with exponential backoff (INTEGRATIONS_RETRY_DELAY, INTEGRATIONS_MAX_ATTEMPTS) like tracker deliveries.
 */
export class AlertsService {
  #timer: NodeJS.Timeout | null = null;
  readonly #outbox: DeliveryOutbox<AlertDeliveryRow>;

  constructor(private readonly deps: AlertsDeps) {
    this.#outbox = new DeliveryOutbox({
      ...deps,
      ...alertOutboxTables,
      send: (delivery) => this.#deliver(delivery),
      says: { attemptFailed: 'an alert delivery failed', passFailed: 'alert deliveries failed' },
    });
  }

  get #allowPrivate(): boolean {
    return this.deps.env.ENGINE_ALLOW_PRIVATE_TARGETS;
  }

  async list(clientId: string): Promise<AlertChannel[]> {
    return (await listChannels(this.deps.db, clientId)).map(channelView);
  }

  /** The target checked for its kind: an e-mail address, or an http(s) URL allowed by the target policy. */
  async #checkTarget(kind: AlertChannelKind, target: string): Promise<string> {
    if (kind === 'email') {
      if (!emailAddress.safeParse(target).success) throw new ValidationError('target must be an e-mail address', 'target');
      return target;
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new ValidationError('target must be an http(s) URL', 'target');
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) throw new ValidationError('target must be an http(s) URL without credentials', 'target');
    const refusal = await outboundUrlRefusal(target, this.#allowPrivate);
    if (refusal) throw new ValidationError(`target is refused: ${refusal}`, 'target');
    return target;
  }

  #newSecret(): { secret: string; sealed: string; hint: string } {
    const secret = `whsec_${randomBytes(24).toString('hex')}`;
    return { secret, sealed: sealApiKey(this.deps.keys, secret), hint: secret.slice(-4) };
  }

  /** Where a checked target is kept: Slack and Teams URLs sealed with a hint beside them, the rest as they are. */
  #stored(kind: AlertChannelKind, target: string): { target: string; targetSealed: string | null } {
    return SEALED_KINDS.has(kind) ? { target: urlHint(target), targetSealed: sealApiKey(this.deps.keys, target) } : { target, targetSealed: null };
  }

  /** Counts a message the caller sets off (a test, a confirmation mail): 429 past the channel's or the client's share. */
  async #takeMessage(clientId: string, channelId: string | null): Promise<void> {
    const { env } = this.deps;
    const limits = [{ key: `alert-messages:${clientId}`, max: env.ALERT_MESSAGES_PER_HOUR, windowSeconds: 3600 }];
    if (channelId) limits.unshift({ key: `alert-message:${channelId}`, max: 1, windowSeconds: env.ALERT_TEST_INTERVAL });
    const wait = Math.ceil(await takeAttempt(this.deps.db, limits));
    if (wait > 0) {
      throw new TooManyRequestsError(
        `Test alerts and confirmation mails are limited to one per channel every ${env.ALERT_TEST_INTERVAL} s and ${env.ALERT_MESSAGES_PER_HOUR} an hour per client; try again in ${wait} s`,
        wait,
      );
    }
  }

  /** A new confirmation link for an e-mail channel: what to store, and the token only the mail holds. */
  #newConfirmation(): Confirmation {
    const token = randomToken('fsc_');
    return { token, set: { confirmedAt: null, confirmTokenHash: sha256(token), confirmExpiresAt: new Date(Date.now() + CONFIRM_TTL_HOURS * 3600_000), confirmSentAt: null } };
  }

  /** Mails the link; the channel records when. A mail that fails leaves it unsent (the portal offers to send it again). */
  async #mailConfirmation(row: ChannelRow, token: string): Promise<ChannelRow> {
    const client = await getClient(this.deps.db, row.clientId);
    const link = `${publicUrl(this.deps.env)}${paths.alertConfirm}?token=${encodeURIComponent(token)}`;
    try {
      await this.deps.mailer.send({
        to: row.target,
        subject: 'Confirm this address for Fullstop QA alerts',
        text:
          `The ${client.name} team asked Fullstop QA to send its test alerts to this address.\n\n` +
          `To agree, open this link within ${CONFIRM_TTL_HOURS} hours:\n${link}\n\n` +
          'If you did not expect this, ignore this message: nothing is sent to this address until it is confirmed.\n',
      });
    } catch (err) {
      this.deps.log.error({ err, channelId: row.id }, 'the confirmation mail of an alert channel could not be sent');
      return row;
    }
    return updateChannel(this.deps.db, row.id, { confirmSentAt: new Date() });
  }

  async create(clientId: string, body: CreateAlertChannelBody): Promise<{ channel: AlertChannel; secret?: string }> {
    const target = await this.#checkTarget(body.kind, body.target);
    const made = body.kind === 'webhook' ? this.#newSecret() : null;
    const confirmation = body.kind === 'email' ? this.#newConfirmation() : null;
    if (confirmation) await this.#takeMessage(clientId, null);
    const max = this.deps.env.ALERT_CHANNELS_MAX;
    let row = await insertChannel(
      this.deps.db,
      {
        clientId,
        kind: body.kind,
        name: body.name,
        ...this.#stored(body.kind, target),
        secret: made?.sealed ?? null,
        secretHint: made?.hint ?? null,
        enabled: body.enabled ?? true,
        rules: orderRules(body.rules ?? ALERT_RULES),
        ...confirmation?.set,
      },
      max,
    );
    if (!row) throw new AppError(409, 'LIMIT_REACHED', `A client may have at most ${max} alert channels (ALERT_CHANNELS_MAX): remove one first`);
    if (confirmation) row = await this.#mailConfirmation(row, confirmation.token);
    return { channel: channelView(row), ...(made ? { secret: made.secret } : {}) };
  }

  /** "Send the link again" for an e-mail channel not confirmed yet; counted like a test alert. */
  async resendConfirmation(row: ChannelRow): Promise<AlertChannel> {
    if (row.kind !== 'email') throw new ValidationError('Only an e-mail channel is confirmed by a link');
    if (row.confirmedAt) throw new AppError(409, 'ALREADY_CONFIRMED', `${row.target} is already confirmed`);
    await this.#takeMessage(row.clientId, row.id);
    const confirmation = this.#newConfirmation();
    const updated = await updateChannel(this.deps.db, row.id, confirmation.set);
    return channelView(await this.#mailConfirmation(updated, confirmation.token));
  }

  /** The mailed link, opened (no login): confirms its channel once, before it expires. */
  async confirm(token: string): Promise<{ message: string }> {
    const row = await confirmChannel(this.deps.db, sha256(token));
    if (!row) {
      throw new AppError(410, 'CONFIRMATION_INVALID', 'This confirmation link is not valid any more: it was used, replaced by a newer one, or it expired. Ask for a new one on the Alerts page.');
    }
    return { message: `Confirmed: Fullstop QA alerts will be sent to ${row.target}` };
  }

  /** Seals the URL of Slack and Teams channels stored in clear before decision 0076; run once at start-up. */
  async sealLegacyTargets(): Promise<number> {
    const rows = await listUnsealedChannels(this.deps.db);
    for (const row of rows) await sealChannelTarget(this.deps.db, row.id, this.#stored(row.kind, row.target) as { target: string; targetSealed: string });
    return rows.length;
  }

  async update(row: ChannelRow, body: UpdateAlertChannelBody): Promise<{ channel: AlertChannel; secret?: string }> {
    const set: Parameters<typeof updateChannel>[2] = {};
    if (body.name !== undefined) set.name = body.name;
    let confirmation: Confirmation | null = null;
    if (body.target !== undefined) {
      const target = await this.#checkTarget(row.kind, body.target);
      Object.assign(set, this.#stored(row.kind, target));
      // A new address is confirmed again before anything is sent to it.
      if (row.kind === 'email' && target.toLowerCase() !== row.target.toLowerCase()) {
        await this.#takeMessage(row.clientId, row.id);
        confirmation = this.#newConfirmation();
        Object.assign(set, confirmation.set);
      }
    }
    if (body.rules !== undefined) set.rules = orderRules(body.rules);
    if (body.enabled !== undefined) set.enabled = body.enabled;
    let shown: string | undefined;
    if (body.rotateSecret) {
      if (row.kind !== 'webhook') throw new ValidationError('Only a generic webhook has a signing secret', 'rotateSecret');
      const made = this.#newSecret();
      set.secret = made.sealed;
      set.secretHint = made.hint;
      shown = made.secret;
    }
    let updated = await updateChannel(this.deps.db, row.id, set);
    if (confirmation) updated = await this.#mailConfirmation(updated, confirmation.token);
    return { channel: channelView(updated), ...(shown ? { secret: shown } : {}) };
  }

  #runUrl(runId: string): string {
    return `${publicUrl(this.deps.env)}${historyRunPath(runId)}`;
  }

  /** "Send a test alert": one delivery now, recorded like any other, never retried. */
  async test(clientId: string, row: ChannelRow): Promise<AlertTestResponse> {
    if (unconfirmed(row)) {
      throw new AppError(409, 'CHANNEL_NOT_CONFIRMED', `${row.target} has not confirmed yet: nothing is sent to it until the link mailed to it is opened`);
    }
    await this.#takeMessage(clientId, row.id);
    const message: AlertMessage = {
      alertId: null,
      rule: 'test',
      title: 'Test alert',
      text: `This is a test alert for the channel "${row.name}". Alerts about your runs will arrive here.`,
      subject: null,
      runId: null,
      runUrl: null,
      at: new Date().toISOString(),
    };
    const delivery = await enqueueAlertDelivery(this.deps.db, { clientId, channel: row, eventId: null, rule: 'test', title: message.title, runId: null, message: { ...message }, due: false });
    const { delivered, ...outcome } = await this.#outbox.attemptOnce(delivery, () => this.#send(row, message));
    const name = KIND_NAMES[row.kind];
    if (delivered) return { delivered, statusCode: outcome.statusCode, message: row.kind === 'email' ? `The test alert was sent to ${row.target}` : `${name} answered HTTP ${outcome.statusCode}` };
    return { delivered, statusCode: outcome.statusCode, message: `${name} ${outcome.error}` };
  }

  /** One attempt: the HTTP status (null for e-mail) on success; throws otherwise. */
  async #send(channel: ChannelRow, message: AlertMessage): Promise<number | null> {
    if (unconfirmed(channel)) throw new UndeliverableError('the address is not confirmed');
    if (channel.kind === 'email') {
      const mail = emailOf(message);
      await this.deps.mailer.send({ to: channel.target, subject: mail.subject, text: mail.text });
      return null;
    }
    const body = webhookJson(channel.kind, message);
    const res =
      channel.kind === 'webhook'
        ? await sendSignedWebhook(channel.target, openApiKey(this.deps.keys, channel.secret!), body, this.#allowPrivate, USER_AGENT)
        : await outboundRequest(channel.targetSealed ? openApiKey(this.deps.keys, channel.targetSealed) : channel.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body, allowPrivate: this.#allowPrivate, userAgent: USER_AGENT });
    if (res.status < 200 || res.status >= 300) throw new AnswerError(res.status, `answered HTTP ${res.status}`);
    return res.status;
  }

  /** Evaluates every finished run not evaluated yet (by any process), oldest first. The number evaluated here. */
  async evaluatePending(): Promise<number> {
    let evaluated = 0;
    const broken = new Set<string>();
    for (;;) {
      const runs = (await unevaluatedRuns(this.deps.db, 20 + broken.size)).filter((r) => !broken.has(r.id));
      if (!runs.length) return evaluated;
      for (const run of runs) {
        try {
          if (await this.evaluateRun(run)) evaluated += 1;
        } catch (err) {
          // Rolled back: tried again on the next pass; the runs after it are not held up.
          broken.add(run.id);
          this.deps.log.error({ err, runId: run.id }, 'the alerts of a run could not be evaluated');
        }
      }
    }
  }

  /**
   * In one transaction: claims the run (exactly one process does), raises its alerts, queues their deliveries.
   * A failure rolls all of it back, and the run is evaluated again on the next pass.
   */
  async evaluateRun(run: RunRow): Promise<boolean> {
    // Read before the transaction: PGlite has one connection, which the transaction holds.
    const isFalsePositive = await falsePositiveMatcher(this.deps.db, run.clientId);
    const queued = await this.deps.db.transaction(async (tx) => {
      if (!(await claimRun(tx, run))) return null;
      if (run.status === 'cancelled' || run.status === 'queued' || run.status === 'running') return 0;
      const tests = (await runTestsOf(tx, run.id)).filter((t) => t.finishedAt && ['passed', 'failed', 'error'].includes(t.status));
      const flaky = await flakyTestNames(tx, run.clientId);
      const raised: RaisedAlert[] = [];
      const runFailing = tests.filter((t) => FAILING.has(t.status));
      if (FAILING.has(run.status) && runFailing.some((t) => !flaky.has(t.testName))) {
        const names = runFailing.map((t) => t.testName);
        raised.push({
          rule: 'run-failed',
          subject: 'run',
          state: 'failed',
          title: `A run failed: ${plural(runFailing.length, 'test')} of ${tests.length} did not pass`,
          text: `The run of ${run.scope === 'all' ? 'all tests' : `"${run.scope}"`} (started by ${run.trigger}) finished with ${plural(runFailing.length, 'failing test')}: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}.`,
        });
      }
      for (const test of tests) {
        if (flaky.has(test.testName)) continue;
        raised.push(...(await this.#testAlerts(tx, test, isFalsePositive)));
      }
      const channels = (await listChannels(tx, run.clientId)).filter((c) => c.enabled && !unconfirmed(c));
      let count = 0;
      for (const alert of raised) {
        const eventId = await insertEvent(tx, { clientId: run.clientId, rule: alert.rule, subject: alert.subject, state: alert.state, lastRunId: run.id, title: alert.title });
        if (!eventId) continue;
        const message: AlertMessage = { alertId: eventId, rule: alert.rule, title: alert.title, text: alert.text, subject: alert.subject, runId: run.id, runUrl: this.#runUrl(run.id), at: new Date().toISOString() };
        for (const channel of channels.filter((c) => c.rules.includes(alert.rule))) {
          await enqueueAlertDelivery(tx, { clientId: run.clientId, channel, eventId, rule: alert.rule, title: alert.title, runId: run.id, message: { ...message } });
          count += 1;
        }
      }
      return count;
    });
    if (queued) this.#outbox.kick();
    return queued !== null;
  }

  async #testAlerts(tx: Parameters<typeof runTestsOf>[0], test: RunTestRow, isFalsePositive: (f: Finding) => boolean): Promise<RaisedAlert[]> {
    const out: RaisedAlert[] = [];
    const previous = await previousResult(tx, test);
    const failing = FAILING.has(test.status);
    const wasFailing = previous ? FAILING.has(previous.status) : false;
    const where = `"${test.testName}" (${test.groupName})`;
    if (failing && !wasFailing) {
      const firstCase = test.summary && 'cases' in test.summary ? test.summary.cases?.find((c) => c.status === 'failed') : undefined;
      out.push({
        rule: 'test-failing',
        subject: test.testName,
        state: 'failing',
        title: `${test.testName} started failing`,
        text: `${where} ${test.status === 'error' ? 'could not run' : 'failed'}${previous ? ' after passing in its previous run' : ' in its first run'}.${firstCase ? ` First failing case: ${firstCase.name}.` : test.error ? ` ${test.error}` : ''}`,
      });
    }
    if (!failing && previous && wasFailing) {
      out.push({ rule: 'test-recovered', subject: test.testName, state: 'recovered', title: `${test.testName} recovered`, text: `${where} passed again after failing in its previous run.` });
    }
    const summary = test.summary;
    if (summary && 'findings' in summary && Array.isArray(summary.findings)) {
      const before = new Set<string>();
      const prev = previous?.summary;
      if (prev && 'findings' in prev && Array.isArray(prev.findings)) for (const f of prev.findings) if (f.risk === 'High' || f.risk === 'Medium') before.add(f.ruleId);
      const seen = new Set<string>();
      // Instances marked false positives do not count; a rule with none left raises nothing.
      for (const f of summary.findings) {
        if ((f.risk !== 'High' && f.risk !== 'Medium') || before.has(f.ruleId) || seen.has(f.ruleId) || isFalsePositive(f)) continue;
        seen.add(f.ruleId);
        const count = summary.findings.filter((g) => g.ruleId === f.ruleId).length;
        out.push({
          rule: 'security-alert',
          subject: `${test.testName} ${f.ruleId}`,
          state: 'open',
          title: `New ${f.risk} security alert: ${f.name}`,
          text: `${where} found a ${f.risk} risk that its previous run did not: ${f.name} (rule ${f.ruleId}), ${plural(count, 'instance')}${f.url ? `, e.g. at ${f.url}` : ''}.`,
        });
      }
    }
    if (summary?.kind === 'load' && summary.load.customMetricThresholdMet === false) {
      const prev = previous?.summary;
      const missedBefore = prev?.kind === 'load' && prev.load.customMetricThresholdMet === false;
      if (!missedBefore) {
        const missed = (summary.thresholdChecks ?? []).filter((c) => !c.met).map((c) => `${c.name}: ${c.actual} (limit ${c.limit})`);
        out.push({
          rule: 'load-threshold',
          subject: test.testName,
          state: 'missed',
          title: `${test.testName} missed its load threshold`,
          text: `${where} did not meet its thresholds${missed.length ? `: ${missed.join('; ')}` : ''}. Average response time ${summary.load.averageResponseTime} ms, p95 ${summary.load.ninetyFifthPercentileResponseTime} ms.`,
        });
      }
    }
    return out;
  }

  /** A run ended in this process: evaluate at once rather than at the next poll (worker processes are covered by the poll). */
  onRunFinished(): void {
    if (this.#outbox.working) void this.tick().catch((err: unknown) => this.deps.log.error({ err }, 'alert evaluation failed'));
  }

  /** Evaluates pending runs, then works every delivery due now. */
  async tick(): Promise<void> {
    await this.evaluatePending();
    await this.drain();
  }

  /** Works every delivery due now (the outbox's pass). */
  drain(): Promise<void> {
    return this.#outbox.drain();
  }

  /** A queued alert, sent to its channel as it is now (a channel removed or turned off is not retried). */
  async #deliver(delivery: AlertDeliveryRow): Promise<number | null> {
    const channel = delivery.channelId ? (await listChannels(this.deps.db, delivery.clientId)).find((c) => c.id === delivery.channelId) : undefined;
    if (!channel || !channel.enabled) throw new UndeliverableError(channel ? 'the channel was turned off' : 'the channel was removed');
    return this.#send(channel, delivery.message as unknown as AlertMessage);
  }

  /** The loop of a worker process: evaluate finished runs and work due deliveries every few seconds. */
  start(): void {
    this.#outbox.start();
    this.#timer = setInterval(() => void this.tick().catch((err: unknown) => this.deps.log.error({ err }, 'alerts failed')), WORK_POLL_MS);
    this.#timer.unref();
    this.onRunFinished();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#outbox.stop();
  }
}

function orderRules(rules: readonly AlertRule[]): AlertRule[] {
  return ALERT_RULES.filter((r) => rules.includes(r));
}
