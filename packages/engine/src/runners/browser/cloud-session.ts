/**
 * A cloud cell's browser (decision 0100): one W3C WebDriver session on the client's device cloud, through the
 * provider's hub, for the cell's page checks. Before each cell the server is asked for it (RunContext.openDevice):
 * it answers the hub to use (AWS Device Farm's is a signed URL made for the cell) or refuses past the client's cap of
 * cloud minutes per run. The hub's address is judged by the target policy like the mobile kind's endpoint, every
 * connection pinned to the addresses judged; the user name and key (BrowserStack, Sauce Labs) go as basic auth and
 * never into the run folder, a report or a log. The session always ends: after the cell's pages, at a failure, when
 * the run is aborted (the end is not bound to the run's signal); a killed runner's are ended by the server from the
 * notes in `CLOUD_SESSIONS_NOTE`, and by the provider's idle timeout at the latest.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Agent, request } from 'undici';
import { CLOUD_SESSIONS_NOTE, PAGE_CHECK_WORDS } from '@fullstop/contracts';
import { errorMessage } from '../../lib/result.ts';
import type { WebDriverFetch } from '../../lib/webdriver.ts';
import { WebDriverSession } from '../../lib/webdriver.ts';
import { createTargetGuard } from '../../policy/target-guard.ts';
import type { DeviceSessionPart, RunContext, RunTarget } from '../../types.ts';
import { browserStackPlaywrightCaps, browserStackPlaywrightUrl, type CloudCell, type CloudHub, cloudCapabilities, cloudSpecsRefusal, PROVIDER_TITLES } from './cloud-cells.ts';
import { type CloudRelay, startCloudRelay } from './cloud-relay.ts';
import type { CloudCellSummary } from './facts.ts';

/** How long a cloud session may take to start: a real device is found, cleaned and handed over (a minute or more). */
export const CLOUD_SESSION_START_MS = 5 * 60_000;
/** The provider's idle timeout of a session: the bound on one a killed runner left (BrowserStack allows 300 s at most). */
const IDLE_SECONDS = { min: 60, max: 300 };

/** What no cloud cell runs, in the matrix report's words. */
const CLOUD_NEVER = 'our policy proxy and network shaping (network: the provider’s), the suite’s login (its cookies would be written in the provider’s logs)';
/** What a cloud cell cannot run: the spec files too, where its provider does not run Playwright (with why). */
export const cloudCellCannot = (specsRefusal: string | null) => (specsRefusal ? `Playwright spec files (${specsRefusal}), ${CLOUD_NEVER}` : CLOUD_NEVER);

/** The cloud cells of a browser test that run its spec files (decision 0106), as the spec part uses them. */
export interface CloudSpecCells {
  cells: CloudCell[];
  /** The relay their projects connect to (outside the jail, with the provider's key); `perCell`: one a Playwright worker. */
  startRelay(perCell: number): Promise<CloudRelay>;
  /**
   * The spec part has ended: each cell's connections and time, from the relay; each cell's spec session is let go
   * (the server records its time in the run's cloud minutes).
   */
  ended(relay: CloudRelay): Promise<void>;
  /** The cells whose spec files the server did not let start (the client's cap), by cell name: why, in the report's words. */
  notStarted(): Map<string, string>;
}

/** Why the server did not give a cell its session: the client's cap of cloud minutes per run is used up. */
export const CLOUD_CAP_CODE = 'cloud_cap';

export type CloudCellOpening = { session: WebDriverSession; close(): Promise<void> } | { error: string; skipped: boolean };

/** A fetch over connections pinned to the hub's judged addresses (undici, as the mobile kind's session end). */
function pinnedFetch(lookup: unknown): { fetch: WebDriverFetch; close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { lookup: lookup as never } });
  return {
    fetch: async (url, init) => {
      const res = await request(url, { method: init.method as 'GET', headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}), signal: init.signal, dispatcher });
      const text = await res.body.text();
      return { status: res.statusCode, ok: res.statusCode >= 200 && res.statusCode < 300, text: async () => text };
    },
    close: () => dispatcher.close().catch(() => {}),
  };
}

/** Our Playwright's version: BrowserStack serves a Playwright of the same protocol (`client.playwrightVersion`). */
const PLAYWRIGHT_VERSION = (createRequire(import.meta.url)('playwright-core/package.json') as { version: string }).version;

/** A device minute count: to a tenth, rounded up (a provider bills a started minute; this says how much of it). */
export const deviceMinutes = (ms: number) => Math.ceil(ms / 6_000) / 10;

interface CloudCellsInput {
  hub: CloudHub;
  cells: readonly CloudCell[];
  target: RunTarget;
  ctx: RunContext;
  testName: string;
  testTimeoutMs: number;
  /** When the test's maxDurationSeconds ends (epoch ms): a session is not waited for past it. */
  deadline: number;
}

/**
 * The cloud cells of one attempt: each opened in turn (`open`), its summary kept for the report. The notes of the
 * sessions (ids, ended or not) are written to the run folder as they change, for the server's kill path.
 */
export class CloudCells {
  readonly summaries: CloudCellSummary[];
  private readonly notes: { index: number; sessionId: string; ended: boolean }[] = [];
  private readonly p: CloudCellsInput;

  constructor(p: CloudCellsInput) {
    this.p = p;
    const provider = PROVIDER_TITLES[p.hub.provider];
    this.summaries = p.cells.map((cell) => ({
      cell: cell.name,
      label: cell.label,
      provider,
      device: cell.device.cloud,
      os: cell.device.os ?? null,
      browser: cell.device.browser,
      browserVersion: null,
      platformName: null,
      sessionId: null,
      minutes: null,
      ran: null,
      cannot: cloudCellCannot(cloudSpecsRefusal(p.hub.provider, cell)),
    }));
  }

  /** Each cell's time in its page-check session (ms), and whether its page checks ran. */
  private readonly pageMs = new Map<number, number>();

  /**
   * The cells whose provider runs the suite's spec files over Playwright (BrowserStack's desktops), with the relay
   * that connects them; undefined when there are none (or the provider has no user name and key to add).
   */
  specCells(): CloudSpecCells | undefined {
    const { hub, cells } = this.p;
    const runs = cells.filter((cell) => cloudSpecsRefusal(hub.provider, cell) === null);
    if (runs.length === 0) return undefined;
    if (!hub.username || !hub.accessKey) {
      for (const cell of runs) this.summaries[cell.index]!.cannot = cloudCellCannot(`${PROVIDER_TITLES[hub.provider]} takes Playwright only with the account’s user name and access key, and they are not set`);
      return undefined;
    }
    // Every connection of a cell is one build's session on BrowserStack: the server finds them by this name after the run.
    const build = `Fullstop QA ${randomBytes(6).toString('hex')}`;
    const caps = new Map(runs.map((cell) => [cell.index, browserStackPlaywrightCaps(cell, { name: `Fullstop QA: ${this.p.testName} · ${cell.label} · spec files`.slice(0, 255), build, playwrightVersion: PLAYWRIGHT_VERSION })]));
    // Each cell's spec session, asked of the server once, before the cell's first connection reaches the provider
    // (its time counts toward the client's cap from then), and let go when the spec part ends: Playwright may open
    // the cell's connections again (a worker restarted after a failure) until then.
    const asked = new Map<number, Promise<boolean>>();
    const refusals = new Map<number, string>();
    const admit = (index: number): Promise<void> => {
      let answer = asked.get(index);
      if (!answer) {
        answer = this.askSpecSession(runs.find((c) => c.index === index)!, caps.get(index)!, refusals);
        asked.set(index, answer);
      }
      return answer.then(() => {
        const refused = refusals.get(index);
        if (refused !== undefined) throw new Error(`spec files ${refused}`);
      });
    };
    return {
      cells: runs,
      startRelay: (perCell) =>
        startCloudRelay({
          endpoint: browserStackPlaywrightUrl(hub.url),
          username: hub.username!,
          accessKey: hub.accessKey!,
          cells: runs.map((cell) => ({ index: cell.index, caps: caps.get(cell.index)! })),
          perCell,
          admit,
          target: this.p.target,
          ctx: this.p.ctx,
        }),
      ended: async (relay) => {
        for (const cell of runs) {
          const used = relay.usage(cell.index);
          const notStarted = refusals.get(cell.index);
          this.summaries[cell.index]!.specFiles = { build, connections: used.connections, ms: Math.round(used.ms), ...(used.refused ? { refused: used.refused } : {}), ...(notStarted ? { notStarted } : {}) };
          if (await asked.get(cell.index)) await this.release(cell, 'specs');
        }
      },
      notStarted: () => new Map(runs.flatMap((cell) => (refusals.has(cell.index) ? [[cell.name, refusals.get(cell.index)!] as const] : []))),
    };
  }

  /**
   * Asks the server for a cell's spec session (true: given, to be let go); a refusal is kept in `refusals` in the
   * report's words (the page checks' for the cap). A runner without a server connects without asking.
   */
  private async askSpecSession(cell: CloudCell, capabilities: Record<string, unknown>, refusals: Map<number, string>): Promise<boolean> {
    const { ctx } = this.p;
    if (!ctx.openDevice) return false;
    try {
      await ctx.openDevice({ index: cell.index, label: cell.label, capabilities, deadline: this.p.deadline, part: 'specs' });
      return true;
    } catch (error) {
      refusals.set(cell.index, this.refusalOf(error));
      ctx.log('a cloud cell’s spec files were not started', { cell: cell.name, reason: refusals.get(cell.index) });
      return false;
    }
  }

  /** Why the server gave a cell no session, in the report's words: "not started: <the cap>" or the server's error. */
  private refusalOf(error: unknown): string {
    return (error as { code?: unknown }).code === CLOUD_CAP_CODE ? `not started: ${errorMessage(error)}` : `the cloud session could not be asked for: ${this.clean(errorMessage(error))}`;
  }

  /** The server lets the cell's session of a part go (its time stops counting toward the cap). */
  private async release(cell: CloudCell, part: DeviceSessionPart): Promise<void> {
    await this.p.ctx.closeDevice?.(cell.index, part).catch((error: unknown) => this.p.ctx.log('the cloud cell could not be let go', { cell: cell.name, part, error: errorMessage(error) }));
  }

  /** Both parts have ended: each cell says what ran there and the minutes of all its sessions (page checks' and spec files'). */
  settle(): void {
    this.summaries.forEach((summary, index) => {
      const specs = summary.specFiles;
      const pageMs = this.pageMs.get(index);
      // Nothing ran on the cell, its spec files refused a session: the report says why (as for its page checks).
      if (specs?.notStarted && summary.ran === null) summary.note ??= specs.notStarted;
      if (!specs || specs.connections === 0) return;
      summary.ran = pageMs !== undefined ? `spec files and page checks (${PAGE_CHECK_WORDS})` : 'spec files';
      summary.minutes = deviceMinutes(specs.ms + (pageMs ?? 0));
    });
  }

  /** The provider's answer, without the access key anywhere in it (Sauce Labs repeats a refused key in its message). */
  private clean(text: string): string {
    const key = this.p.hub.accessKey;
    if (!key) return text;
    return text.split(key).join('••••').split(encodeURIComponent(key)).join('••••');
  }

  private async writeNotes(): Promise<void> {
    const file = path.join(this.p.ctx.runDir, CLOUD_SESSIONS_NOTE);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(this.notes)).catch(() => {});
  }

  /** Opens the cell's session, or says why not (`skipped`: the cap; else the cell's pages fail with the reason). */
  async open(cell: CloudCell): Promise<CloudCellOpening> {
    const { hub, ctx, target } = this.p;
    const summary = this.summaries[cell.index]!;
    const started = performance.now();
    const idleSeconds = Math.min(IDLE_SECONDS.max, Math.max(IDLE_SECONDS.min, Math.ceil(this.p.testTimeoutMs / 1000) + 60));
    const capabilities = cloudCapabilities(hub, cell, { sessionName: `Fullstop QA: ${this.p.testName} · ${cell.label}`.slice(0, 255), build: 'Fullstop QA', idleSeconds });
    // The server gives the hub for this cell (and counts its minutes); a runner without a server uses the target's.
    let hubUrl = hub.url;
    let asked = false;
    if (ctx.openDevice) {
      try {
        hubUrl = (await ctx.openDevice({ index: cell.index, label: cell.label, capabilities, deadline: this.p.deadline })).url;
        asked = true;
      } catch (error) {
        summary.note = this.refusalOf(error);
        return { error: summary.note, skipped: (error as { code?: unknown }).code === CLOUD_CAP_CODE };
      }
    }
    /** The server lets the cell go (its time stops counting toward the cap). */
    const release = async () => {
      if (asked) await this.release(cell, 'pages');
    };
    let pinned: ReturnType<typeof pinnedFetch> | null = null;
    let session: WebDriverSession;
    try {
      // The hub is an outbound address like any other: http(s), not private unless the target allows it, pinned.
      const guard = createTargetGuard({ baseUrl: hubUrl, allowedOrigins: [], allowPrivateAddresses: target.allowPrivateAddresses }, ctx.network);
      const url = await guard.check(hubUrl);
      await guard.addresses(url.hostname);
      pinned = pinnedFetch(guard.lookup);
      const headers: Record<string, string> = hub.provider !== 'devicefarm' && (hub.username || hub.accessKey) ? { authorization: `Basic ${Buffer.from(`${hub.username ?? ''}:${hub.accessKey ?? ''}`).toString('base64')}` } : {};
      const base = url.href.replace(/\/+$/, '');
      session = await WebDriverSession.open(base, capabilities, { timeoutMs: Math.max(1_000, Math.min(CLOUD_SESSION_START_MS, this.p.deadline - Date.now())), signal: ctx.signal, transport: { headers, fetch: pinned.fetch } });
    } catch (error) {
      await pinned?.close();
      await release();
      summary.note = `the session on ${summary.provider} did not start: ${this.clean(errorMessage(error))}`;
      return { error: summary.note, skipped: false };
    }
    const note = { index: cell.index, sessionId: session.id, ended: false };
    this.notes.push(note);
    await this.writeNotes();
    summary.sessionId = session.id;
    // A page's load and a script's run are bounded as on the other engines (a provider's default may be minutes).
    await session.setTimeouts({ pageLoad: this.p.testTimeoutMs, script: this.p.testTimeoutMs }).catch((error: unknown) => ctx.log('the cloud session took no timeouts', { cell: cell.name, error: this.clean(errorMessage(error)) }));
    const caps = session.capabilities;
    const text = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 100) : null);
    summary.browserVersion = text(caps.browserVersion ?? caps.version);
    summary.platformName = text(caps.platformName ?? caps.platform);
    summary.ran = `page checks only (${PAGE_CHECK_WORDS})`;
    ctx.log('cloud session started', { cell: cell.name, provider: summary.provider, sessionId: session.id, startMs: Math.round(performance.now() - started) });
    const pinnedFetchOfCell = pinned;
    return {
      session,
      close: async () => {
        const ended = await session.close(15_000);
        note.ended = ended;
        await this.writeNotes();
        await pinnedFetchOfCell.close();
        await release();
        const ms = performance.now() - started;
        this.pageMs.set(cell.index, ms);
        summary.minutes = deviceMinutes(ms);
        if (!ended) ctx.log('the cloud session could not be ended: the provider’s idle timeout ends it', { cell: cell.name, sessionId: session.id, idleSeconds });
      },
    };
  }
}
