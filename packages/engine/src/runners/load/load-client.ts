import net from 'node:net';
import tls from 'node:tls';
import { COMPLETE, INVALID, MORE, ResponseParser } from './response-parser.ts';
import type { LoadSamples } from './stats.ts';

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
}

export interface LoadClientOptions {
  /** Origin every connection opens (http: or https:). */
  origin: URL;
  /** Cycled through on every connection, each connection starting at the first. */
  requests: LoadRequest[];
  connections: number;
  durationSeconds: number;
  /** When set, exactly this many requests in all (responses plus errors), shared out over the connections. */
  amount?: number | undefined;
  timeoutSeconds: number;
}

/** `failures[requestIndex]` maps a status code, or ERROR_STATUS for a connection error or timeout, to its count. */
export const ERROR_STATUS = 0;

/** Bytes of one read; a socket reads into its own buffer, reused for every read. */
const READ_BUFFER_BYTES = 64 * 1024;

/** The request as it goes on the wire: the same shape autocannon sent (Host, keep-alive, Content-Length). */
export function requestBytes(origin: URL, request: LoadRequest): Buffer {
  const headers = request.headers ?? {};
  const given = new Set(Object.keys(headers).map((k) => k.toLowerCase()));
  const body = request.body !== undefined ? Buffer.from(request.body) : null;
  const lines = [`${request.method} ${request.path} HTTP/1.1`];
  if (!given.has('host')) lines.push(`Host: ${origin.host}`);
  if (!given.has('connection')) lines.push('Connection: keep-alive');
  if (body && !given.has('content-length')) lines.push(`Content-Length: ${body.length}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
  return body ? Buffer.concat([head, body]) : head;
}

interface Connection {
  socket: net.Socket | null;
  parser: ResponseParser;
  readBuffer: Buffer;
  /** Index of the request in flight or next to send. */
  index: number;
  /** Requests (responses or errors) this connection may still make; Infinity for a timed run. */
  quota: number;
  inFlight: boolean;
  sentAt: number;
  done: boolean;
}

/**
 * A lean HTTP/1.1 keep-alive load generator: `connections` sockets, one request in flight on each (no
 * pipelining), the next request written as soon as a response completes. Every response is recorded into
 * `samples` from its own time (write to last byte, performance.now(), so sub-millisecond), status and request.
 *
 * Why not autocannon: it parses responses with http-parser-js, buffers every body into a string, emits several
 * events and allocates per request, which cost ~12 µs of CPU per request here against wrk's ~5 µs; on a shared
 * 2-core machine that CPU is taken from the target and capped the runner at ~0.8x wrk. This client reads plain
 * sockets into a reused buffer (`onread`), skips bodies without copying and keeps per-response work to a
 * Float64Array write and a few counters (~7 µs per request).
 */
export function startLoad(options: LoadClientOptions, samples: LoadSamples): { finished: Promise<void>; stop(): void } {
  const { origin, requests } = options;
  const secure = origin.protocol === 'https:';
  const host = origin.hostname.startsWith('[') ? origin.hostname.slice(1, -1) : origin.hostname;
  const port = Number(origin.port) || (secure ? 443 : 80);
  const wire = requests.map((r) => requestBytes(origin, r));
  const noBody = requests.map((r) => r.method === 'HEAD');
  const timeoutMs = options.timeoutSeconds * 1000;

  let stopped = false;
  let active = 0;
  let resolveFinished: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    resolveFinished = resolve;
  });

  const record = (index: number, status: number, elapsed: number) => {
    if (samples.count === samples.times.length) {
      const grown = new Float64Array(samples.times.length * 2);
      grown.set(samples.times);
      samples.times = grown;
    }
    samples.times[samples.count++] = elapsed;
    if (status >= 200 && status < 400) {
      samples.successful++;
    } else {
      samples.failedResponses++;
      countFailure(index, status);
    }
  };
  const countFailure = (index: number, status: number) => {
    const byStatus = samples.failures[index];
    if (byStatus) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  };

  const send = (conn: Connection) => {
    const socket = conn.socket;
    if (stopped || !socket) return;
    if (conn.quota <= 0) {
      finish(conn);
      return;
    }
    const index = conn.index;
    const bytes = wire[index]!;
    conn.parser.begin(noBody[index]!);
    conn.inFlight = true;
    samples.bytesSent += bytes.length;
    // Timed from the write, so a new connection's first request includes connecting, as a visitor's would.
    conn.sentAt = performance.now();
    socket.write(bytes);
  };

  const advance = (conn: Connection) => {
    conn.inFlight = false;
    conn.quota--;
    conn.index = conn.index + 1 === requests.length ? 0 : conn.index + 1;
  };

  const complete = (conn: Connection) => {
    record(conn.index, conn.parser.status, performance.now() - conn.sentAt);
    const closeAfter = conn.parser.closeAfter;
    advance(conn);
    if (closeAfter) reconnect(conn, false);
    else send(conn);
  };

  /** A connection error, a timeout or a response that is not HTTP: one failed request, then a fresh connection. */
  const fail = (conn: Connection) => {
    samples.errors++;
    countFailure(conn.index, ERROR_STATUS);
    advance(conn);
    reconnect(conn, true);
  };

  const onBytes = (conn: Connection, socket: net.Socket, buf: Buffer, length: number) => {
    if (conn.socket !== socket) return;
    samples.bytesReceived += length;
    if (!conn.inFlight) return;
    const result = conn.parser.execute(buf, length);
    if (result === MORE) return;
    if (result === COMPLETE) complete(conn);
    else if (result === INVALID) fail(conn);
  };

  const drop = (conn: Connection) => {
    const socket = conn.socket;
    conn.socket = null;
    socket?.destroy();
  };

  const connect = (conn: Connection) => {
    let socket: net.Socket;
    if (secure) {
      // Certificates are not this test's concern (the security checks report them), as with autocannon.
      socket = tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
      socket.on('data', (chunk: Buffer) => onBytes(conn, socket, chunk, chunk.length));
    } else {
      socket = net.connect({
        host,
        port,
        onread: {
          buffer: conn.readBuffer,
          callback: (length: number, buf: Uint8Array) => {
            onBytes(conn, socket, buf as Buffer, length);
            return true;
          },
        },
      });
    }
    socket.setNoDelay(true);
    socket.on('error', () => {
      if (conn.socket !== socket) return;
      if (conn.inFlight) fail(conn);
      else reconnect(conn, true);
    });
    socket.on('close', () => {
      if (conn.socket !== socket) return;
      if (!conn.inFlight) reconnect(conn, false);
      else if (conn.parser.completesOnClose()) complete(conn);
      else fail(conn);
    });
    conn.socket = socket;
    send(conn);
  };

  const reconnect = (conn: Connection, afterError: boolean) => {
    drop(conn);
    if (stopped) return;
    if (conn.quota <= 0) {
      finish(conn);
      return;
    }
    // After an error, on the next turn of the loop: a refused port must not recurse or starve the timers.
    if (afterError) setImmediate(() => !stopped && !conn.socket && connect(conn));
    else connect(conn);
  };

  const finish = (conn: Connection) => {
    if (conn.done) return;
    conn.done = true;
    drop(conn);
    if (--active === 0) stop();
  };

  const conns: Connection[] = [];
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(deadline);
    clearInterval(sweeper);
    // Requests still in flight are dropped uncounted: the run is over.
    for (const conn of conns) drop(conn);
    resolveFinished();
  };

  // Timeouts are checked by one sweep rather than a timer per request (rescheduling one per request costs).
  const sweeper = setInterval(
    () => {
      const now = performance.now();
      for (const conn of conns) if (conn.inFlight && conn.socket && now - conn.sentAt > timeoutMs) fail(conn);
    },
    Math.min(1000, Math.max(10, timeoutMs / 4)),
  );
  const deadline = options.amount ? undefined : setTimeout(stop, options.durationSeconds * 1000);

  for (let i = 0; i < options.connections; i++) {
    const quota = options.amount
      ? Math.floor(options.amount / options.connections) + (i < options.amount % options.connections ? 1 : 0)
      : Number.POSITIVE_INFINITY;
    if (quota === 0) continue;
    conns.push({
      socket: null,
      parser: new ResponseParser(),
      readBuffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
      index: 0,
      quota,
      inFlight: false,
      sentAt: 0,
      done: false,
    });
  }
  active = conns.length;
  for (const conn of conns) connect(conn);
  if (active === 0) stop();
  return { finished, stop };
}
