import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CreateTestGridUrlCommand, type DeviceFarmClient, GetTestGridSessionCommand, ListTestGridSessionArtifactsCommand } from '@aws-sdk/client-device-farm';
import { CLOUD_SESSIONS_NOTE } from '@fullstop/contracts';
import { DEVICE_SESSION_PARTS, type DeviceSessionPart, type DeviceSessionRequest } from '@fullstop/engine';
import type { Db } from '../../../db/database.ts';
import { outboundRequest } from '../../../lib/outbound-http.ts';
import { cloudMinutesUsed, endCloudCellSession, startCloudCellSession } from '../repository.ts';
import { type BrowserCloudKind, CLOUD_TITLES } from './browser-catalogue.ts';
import { deviceFarmError } from './device-farm.ts';
import type { ProviderLink, SessionLinks } from './session-links.ts';
import { CloudStorageError } from './storage.ts';

// A browser test's cloud cells on the server's side (decision 0100). The runner asks for each cell's session
// (RunContext.openDevice) and lets it go after (closeDevice): the server holds the client's cap of cloud minutes per
// run (the run's cells' time, summed in `cloud_cell_sessions` across its tests and processes), answers the hub (AWS
// Device Farm: a signed desktop browser testing URL made for the cell), and at the attempt's end releases what is
// left and ends any session a killed runner left open (from the runner's notes, over the hub, with the key).

const USER_AGENT = 'FullstopQA-MobileDevices';
/** How long a Device Farm desktop browser testing URL stays valid: the cell's session is created at once with it. */
const TESTGRID_URL_SECONDS = 300;
/** Ending a session a killed runner left: each call's deadline. */
const END_SESSION_DEADLINE_MS = 10_000;

/** Why a cell gets no session past the cap: the runner marks its pages skipped and says so (engine's CLOUD_CAP_CODE). */
export class CloudCapError extends Error {
  readonly code = 'cloud_cap';
}

export interface CloudCellAccount {
  kind: BrowserCloudKind;
  /** The hub (BrowserStack, Sauce Labs); Device Farm's API for the others. */
  url: string;
  username: string | null;
  accessKey: string | null;
  /** Device Farm's desktop browser testing project and a client of its API. */
  testGrid?: { projectArn: string; client: DeviceFarmClient };
}

/** A cell's session of one part (its page checks', its spec files'), as the attempt keeps it. */
const partKey = (index: number, part: DeviceSessionPart) => `${part}:${index}`;

/**
 * The cloud cells of one attempt, on the server's side. A cell has two sessions at most, each once: its page checks'
 * (one cell at a time: the runner takes them in turn) and its spec files' (decision 0106: the relay asks before its
 * first connection to the provider and lets it go when the spec part ends; the cells' Playwright projects run side by
 * side, so several cells' spec sessions may be open together, and beside a page-check session).
 */
export class CloudCellAttempt {
  /** Each cell's row while it has its session of a part, and the hub it was given (to end it at the attempt's end). */
  private readonly open = new Map<string, { index: number; part: DeviceSessionPart; rowId: string; hub: string }>();
  /** The page-check sessions given, by cell: the hub of each (a killed runner's noted sessions are ended over it). */
  private readonly given = new Map<number, string>();
  /** Every session given or being given, by part and cell: none twice. */
  private readonly asked = new Set<string>();
  private ended = false;

  constructor(
    private readonly db: Db,
    private readonly account: CloudCellAccount,
    private readonly p: {
      clientId: string;
      runId: string;
      attemptId: string;
      runDir: string;
      /** The test's cloud cells by index: their labels, and whether their provider runs spec files there; a request for any other index is refused. */
      cells: readonly { label: string; specs: boolean }[];
      cap: number | null;
      allowPrivate: boolean;
      log: (message: string, data?: Record<string, unknown>) => void;
    },
  ) {}

  async openCell(request: DeviceSessionRequest): Promise<{ url: string }> {
    const { cells, cap } = this.p;
    if (this.ended) throw new CloudStorageError('the attempt has ended');
    const part = request.part ?? 'pages';
    if (!DEVICE_SESSION_PARTS.includes(part)) throw new CloudStorageError(`a cloud cell has no session part ${JSON.stringify(String(part)).slice(0, 40)}: ${DEVICE_SESSION_PARTS.join(' or ')}`);
    // The runner is asked nothing it cannot prove: a cell of its own test, one session of each part, once.
    const key = Number.isInteger(request.index) ? partKey(request.index, part) : '';
    if (!key || request.index < 0 || request.index >= cells.length || this.asked.has(key)) {
      throw new CloudStorageError(`cloud cell ${String(request.index)} cannot have a ${part === 'specs' ? 'spec files’' : 'page checks’'} session: this test has ${cells.length} cloud cell${cells.length === 1 ? '' : 's'}, each of them one such session at most`);
    }
    const cell = cells[request.index]!;
    if (part === 'specs' && !cell.specs) throw new CloudStorageError(`cloud cell ${request.index} (${cell.label}) runs no spec files on ${CLOUD_TITLES[this.account.kind]}`);
    // Page checks take their cells in turn; spec files run on their cells side by side (their Playwright projects).
    if (part === 'pages' && [...this.open.values()].some((o) => o.part === 'pages')) throw new CloudStorageError('another cloud cell of this attempt still has its session: one at a time');
    this.asked.add(key);
    try {
      if (cap !== null) {
        const used = await cloudMinutesUsed(this.db, this.p.runId);
        if (used >= cap) {
          this.p.log('cloud cell not started: the cap of cloud minutes per run is used up', { cell: cell.label, part, used, cap });
          throw new CloudCapError(`the client’s cap of ${cap} cloud minute${cap === 1 ? '' : 's'} per run is used up (${Math.round(used * 10) / 10} used by this run’s cloud cells): an operator sets it on the client’s page`);
        }
      }
      // The spec files' connections go to the provider's Playwright endpoint (BrowserStack's), which the runner knows.
      const hub = part === 'pages' ? await this.hubOfCell() : this.account.url;
      if (this.ended) throw new CloudStorageError('the attempt has ended');
      const rowId = await startCloudCellSession(this.db, { clientId: this.p.clientId, runId: this.p.runId, attemptId: this.p.attemptId, cellIndex: request.index, cell: cell.label, provider: this.account.kind });
      // The attempt ended while the row was written: endAll has passed, so the row ends here (it would count forever).
      if (this.ended) {
        await endCloudCellSession(this.db, rowId);
        throw new CloudStorageError('the attempt has ended');
      }
      if (part === 'pages') this.given.set(request.index, hub);
      this.open.set(key, { index: request.index, part, rowId, hub });
      this.p.log('cloud cell session given', { cell: cell.label, part, provider: CLOUD_TITLES[this.account.kind] });
      return { url: hub };
    } catch (err) {
      // Refused (the cap, Device Farm): asked again later, the cell is judged again (the runner asks each once).
      this.asked.delete(key);
      throw err;
    }
  }

  /** The hub of a cell's page-check session: the account's, or Device Farm's signed URL made for the cell. */
  private async hubOfCell(): Promise<string> {
    if (this.account.kind !== 'devicefarm') return this.account.url;
    if (!this.account.testGrid) throw new CloudStorageError('the AWS Device Farm provider has no desktop browser testing project: an operator sets its testgrid-project ARN on the client’s page', 'validation_error');
    try {
      const made = await this.account.testGrid.client.send(new CreateTestGridUrlCommand({ projectArn: this.account.testGrid.projectArn, expiresInSeconds: TESTGRID_URL_SECONDS }));
      if (!made.url) throw new CloudStorageError('AWS Device Farm answered CreateTestGridUrl without a URL');
      return made.url;
    } catch (err) {
      throw deviceFarmError(err, 'when a desktop browser testing URL was created');
    }
  }

  /** The runner let a cell's session of a part go: its time stops counting toward the cap (it stays in the run's sum). */
  async closeCell(index: number, part: DeviceSessionPart = 'pages'): Promise<void> {
    const key = partKey(index, part);
    const entry = this.open.get(key);
    if (!entry) return;
    this.open.delete(key);
    await endCloudCellSession(this.db, entry.rowId);
  }

  /**
   * The attempt has ended, however: every cell's time stops counting, and a session the runner noted and did not end
   * (a killed runner) is ended over its hub with the key; the provider's idle timeout is the last resort.
   */
  async endAll(): Promise<void> {
    this.ended = true;
    // Either part's session a killed runner left: its row ends now (a spec session's connection, dropped with the
    // runner, ended it at the provider; a page-check session is ended below from the runner's notes).
    for (const { index, part } of [...this.open.values()]) await this.closeCell(index, part);
    const notes = await readFile(path.join(this.p.runDir, CLOUD_SESSIONS_NOTE), 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => []);
    if (!Array.isArray(notes)) return;
    for (const note of notes as { index?: unknown; sessionId?: unknown; ended?: unknown }[]) {
      const hub = typeof note.index === 'number' ? this.given.get(note.index) : undefined;
      // Only a session of a cell this attempt was given, by an id of a session's shape.
      if (note.ended === true || !hub || typeof note.sessionId !== 'string' || !/^[A-Za-z0-9._-]{1,128}$/.test(note.sessionId)) continue;
      const auth: Record<string, string> = this.account.kind !== 'devicefarm' && this.account.username && this.account.accessKey ? { authorization: `Basic ${Buffer.from(`${this.account.username}:${this.account.accessKey}`).toString('base64')}` } : {};
      try {
        const res = await outboundRequest(`${hub.replace(/\/+$/, '')}/session/${encodeURIComponent(note.sessionId)}`, { method: 'DELETE', headers: auth, allowPrivate: this.p.allowPrivate, userAgent: USER_AGENT, deadlineMs: END_SESSION_DEADLINE_MS });
        this.p.log('cloud session ended by the server after the runner', { sessionId: note.sessionId, status: res.status });
      } catch (err) {
        this.p.log('a cloud session the runner left could not be ended: the provider’s idle timeout ends it', { sessionId: note.sessionId, error: (err as Error).message });
      }
    }
  }
}

/** Device Farm's desktop browser testing session's video and WebDriver log, by the WebDriver session's id. */
export async function testGridSessionLinks(client: DeviceFarmClient, projectArn: string, sessionId: string, secret: string): Promise<SessionLinks> {
  try {
    const session = (await client.send(new GetTestGridSessionCommand({ projectArn, sessionId }))).testGridSession;
    if (!session?.arn) return { links: [], note: 'AWS Device Farm answered without the session: no video or log links' };
    const links: ProviderLink[] = [];
    for (const type of ['VIDEO', 'LOG'] as const) {
      const listed = await client.send(new ListTestGridSessionArtifactsCommand({ sessionArn: session.arn, type }));
      for (const a of listed.artifacts ?? []) {
        const label = a.type === 'VIDEO' ? 'Video' : a.type === 'SELENIUM_LOG' ? 'WebDriver log' : null;
        if (label && a.url && /^https?:\/\//.test(a.url) && !a.url.includes(secret) && !links.some((l) => l.label === label)) links.push({ label, url: a.url });
      }
    }
    const billed = typeof session.billingMinutes === 'number' ? { billedMinutes: session.billingMinutes } : {};
    return links.length ? { links, ...billed } : { links, ...billed, note: 'AWS Device Farm listed no video or logs for this session' };
  } catch (err) {
    return { links: [], note: deviceFarmError(err, 'when the session’s artifacts were listed').message };
  }
}
