/**
 * Drives autocannon's own HTTP client (one per connection: its request builder, response parser, keep-alive,
 * reconnects and request timeout) with a schedule of our own, because autocannon's runner cannot do two things a
 * load test needs: it destroys every connection when the duration ends, so the requests in flight are served by the
 * site but never counted, and it opens a fixed number of connections, so it cannot ramp.
 *
 * - Graceful stop: a connection is retired by setting its `responseMax` to the requests it has made; autocannon's
 *   client then sends nothing more and closes once its request in flight is answered, fails or times out (the
 *   request timeout bounds the wait). The run ends when the last connection has closed.
 * - Stages: every tick the open connections are brought to what the stages ask for at that moment: new clients are
 *   opened, or the newest are retired as above.
 * - `amount`: each connection gets its share of the requests as `responseMax`, as autocannon's runner does.
 */
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { RunAbortedError } from '../../errors.ts';
import { shareOf } from './generators.ts';
import { connectionsAt, stagesSeconds, type Stage } from './stages.ts';

/** The parts of autocannon's client (autocannon/lib/httpClient.js, autocannon 8.0.0) used here. */
export interface LoadClient extends EventEmitter {
  reqsMade: number;
  responseMax?: number;
  destroyed: boolean;
  /** With pipelining 1 its current request is the one in flight: on 'response', the one just answered. */
  requestIterator: { currentRequest?: { path?: string; requestBuffer?: Buffer } };
  destroy(): void;
}

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadClientOptions {
  protocol: 'http:' | 'https:';
  /** The pinned address (no brackets for IPv6) and port. */
  hostname: string;
  port: number;
  /** TLS server name: the website's host name, since the connection goes to an address. */
  servername?: string;
  requests: LoadRequest[];
  timeoutSeconds: number;
}

type ClientConstructor = new (options: Record<string, unknown>) => LoadClient;
const Client = createRequire(import.meta.url)('autocannon/lib/httpClient.js') as ClientConstructor;

/** `rate`: at most this many requests a second in all (a constant or `amount` plan), shared by the connections. */
export type LoadPlan = ({ amount: number; connections: number } | { stages: Stage[] }) & { rate?: number };

export interface LoadEvents {
  /** A response: autocannon's status, bytes received and sub-millisecond time from write to the last byte. */
  response(client: LoadClient, status: number, bytes: number, ms: number): void;
  /** A request that failed without a response: a connection error or the request timeout. */
  error(): void;
  /** Connections open now (retiring ones included), called on every change and on every tick. */
  connections(open: number): void;
}

/** How often the open connections are brought to what the stages ask for. */
export const STAGE_TICK_MS = 100;
/** Slack past the end of the run and the request timeout before the connections left are closed by force. */
export const FORCED_STOP_SLACK_MS = 5_000;
/** For `amount` runs, which end by themselves: the longest they may take before being stopped. */
export const AMOUNT_RUN_CAP_SECONDS = 300;

/**
 * Runs the plan until every connection has closed. Resolves with the seconds from the first request to the
 * last connection closed; rejects with RunAbortedError when `signal` aborts (every connection closed at once).
 */
export function driveLoad(options: LoadClientOptions, plan: LoadPlan, events: LoadEvents, signal: AbortSignal): Promise<number> {
  const base: Record<string, unknown> = {
    protocol: options.protocol,
    hostname: options.hostname,
    port: options.port,
    ...(options.servername ? { servername: options.servername } : {}),
    pipelining: 1,
    timeout: options.timeoutSeconds,
    requests: options.requests.map((r) => ({ ...r })),
  };
  const started = performance.now();
  /** Open and not retired, oldest first: the newest are retired first when the stages ramp down. */
  const active: LoadClient[] = [];
  const retiring = new Set<LoadClient>();
  let stopping = false;
  let finished = false;

  return new Promise<number>((resolve, reject) => {
    const timers: NodeJS.Timeout[] = [];
    const open = () => active.length + retiring.size;
    const end = (error?: Error) => {
      if (finished) return;
      finished = true;
      for (const timer of timers) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      const elapsed = (performance.now() - started) / 1000;
      if (error) reject(error);
      else resolve(elapsed);
    };
    const closed = (client: LoadClient) => {
      const index = active.indexOf(client);
      if (index >= 0) active.splice(index, 1);
      retiring.delete(client);
      events.connections(open());
      if ((stopping || 'amount' in plan) && open() === 0) end();
    };
    // A paced plan: connection n of the plan's gets its share of the rate (autocannon's per-client `rate`: that many
    // requests each second, then it waits for the next). The rate is at least the connections, so no share is 0.
    const paced = plan.rate ? { rate: plan.rate, connections: 'amount' in plan ? Math.min(plan.connections, plan.amount) : Math.max(...plan.stages.map((s) => s.target)) } : null;
    let opened = 0;
    const start = (responseMax?: number) => {
      const rate = paced ? Math.max(1, shareOf(paced.rate, opened++ % paced.connections, paced.connections)) : undefined;
      const client = new Client({ ...base, ...(responseMax ? { responseMax } : {}), ...(rate ? { rate } : {}) });
      client.on('response', (status: number, bytes: number, ms: number) => events.response(client, status, bytes, ms));
      client.on('connError', () => events.error());
      client.on('timeout', () => events.error());
      client.on('done', () => closed(client));
      active.push(client);
    };
    const retire = (client: LoadClient) => {
      // Its request in flight is answered (or fails, or times out) and counted; then it closes ('done').
      client.responseMax = Math.max(1, client.reqsMade);
      retiring.add(client);
    };
    const stop = () => {
      stopping = true;
      while (active.length > 0) retire(active.pop() as LoadClient);
      events.connections(open());
      if (open() === 0) end();
      // A request that outlives its timeout is failed by the client itself; this only guards against a stuck one.
      const forced = setTimeout(() => {
        for (const client of [...retiring]) {
          events.error();
          client.destroy();
        }
      }, options.timeoutSeconds * 1000 + FORCED_STOP_SLACK_MS);
      timers.push(forced);
    };
    const onAbort = () => {
      for (const client of [...active, ...retiring]) client.removeAllListeners().destroy();
      end(new RunAbortedError());
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });

    if ('amount' in plan) {
      const connections = Math.min(plan.connections, plan.amount);
      // Each connection's share, the first ones one more when it does not divide evenly.
      for (let i = 0; i < connections; i++) start(Math.floor(plan.amount / connections) + (i < plan.amount % connections ? 1 : 0));
      events.connections(open());
      timers.push(setTimeout(stop, AMOUNT_RUN_CAP_SECONDS * 1000));
      return;
    }

    const seconds = stagesSeconds(plan.stages);
    const adjust = () => {
      if (stopping) return;
      const want = connectionsAt(plan.stages, (performance.now() - started) / 1000);
      while (active.length < want) start();
      while (active.length > want) retire(active.pop() as LoadClient);
      events.connections(open());
    };
    adjust();
    const ticker = setInterval(() => (stopping ? events.connections(open()) : adjust()), STAGE_TICK_MS);
    timers.push(ticker);
    timers.push(setTimeout(stop, seconds * 1000));
  });
}
