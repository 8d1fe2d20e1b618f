/**
 * Incremental HTTP/1.1 response parser for the load client: one response at a time (the client never pipelines),
 * bytes fed as they arrive, no allocation per response when the head arrives in one read (the usual case).
 * It reads only what a load test needs: the status, how the body ends (Content-Length, chunked, or the connection
 * closing) and whether the server closes the connection afterwards. Bodies are skipped, never copied.
 */

export const MORE = 0;
export const COMPLETE = 1;
export const INVALID = -1;
export type ParseResult = typeof MORE | typeof COMPLETE | typeof INVALID;

const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_EXTENSION = 3;
const CHUNK_DATA = 4;
const CHUNK_DATA_END = 5;
const TRAILERS = 6;
const UNTIL_CLOSE = 7;
/** The head said there is no body: the response is complete. */
const NO_BODY = 8;

const CR = 13;
const LF = 10;
/** Larger heads are not a web server answering: the response is refused rather than buffered without end. */
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_SIZE = 2 ** 40;

/** Whether buf[start, start + name.length) spells `name` (given in lower case), ignoring ASCII case. */
function nameIs(buf: Buffer, start: number, length: number, name: string): boolean {
  if (length !== name.length) return false;
  for (let i = 0; i < length; i++) {
    if (((buf[start + i] ?? 0) | 0x20) !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** Whether `word` (lower case) occurs in buf[from, to), ignoring ASCII case. */
function containsWord(buf: Buffer, from: number, to: number, word: string): boolean {
  const last = to - word.length;
  for (let i = from; i <= last; i++) {
    if (nameIs(buf, i, word.length, word)) return true;
  }
  return false;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

export class ResponseParser {
  /** Status code of the response being read (set once its head is complete). */
  status = 0;
  /** The server will close the connection after this response (Connection: close, HTTP/1.0, or a body ended by closing). */
  closeAfter = false;
  private state: number = HEAD;
  private noBody = false;
  /** Start of a head split across reads, copied (the socket's read buffer is reused). */
  private pending: Buffer | null = null;
  private remaining = 0;
  private chunkSize = 0;
  private chunkDigits = 0;
  private lineLength = 0;

  /** Prepares for the next response; `noBody` for the answer to a HEAD request. */
  begin(noBody: boolean): void {
    this.noBody = noBody;
    this.state = HEAD;
    this.pending = null;
    this.status = 0;
    this.closeAfter = false;
  }

  /** When the connection closes: whether that ends the response (a body without length ends with the connection). */
  completesOnClose(): boolean {
    return this.state === UNTIL_CLOSE;
  }

  /** Feeds `buf[0, end)`. Bytes after a complete response are ignored: nothing else was asked for. */
  execute(buf: Buffer, end: number): ParseResult {
    let i = 0;
    while (i < end) {
      switch (this.state) {
        case HEAD: {
          const next = this.readHead(buf, i, end);
          if (next < 0) return next === -2 ? MORE : INVALID;
          i = next;
          // readHead set the state (TypeScript still narrows it to HEAD from the case above).
          if ((this.state as number) === NO_BODY) return COMPLETE;
          break; // HEAD again after an informational (1xx) response: the final one follows
        }
        case LENGTH: {
          const take = Math.min(this.remaining, end - i);
          this.remaining -= take;
          i += take;
          if (this.remaining === 0) return COMPLETE;
          break;
        }
        case CHUNK_SIZE: {
          const c = buf[i++] ?? 0;
          const v = hexValue(c);
          if (v >= 0) {
            this.chunkSize = this.chunkSize * 16 + v;
            this.chunkDigits++;
            if (this.chunkSize > MAX_CHUNK_SIZE) return INVALID;
          } else if (c === LF) {
            if (this.chunkDigits === 0) return INVALID;
            this.endSizeLine();
          } else if (c === CR || c === 59 /* ; */ || c === 32 || c === 9) {
            if (c !== CR) this.state = CHUNK_EXTENSION;
          } else {
            return INVALID;
          }
          break;
        }
        case CHUNK_EXTENSION: {
          const lf = buf.indexOf(LF, i);
          if (lf < 0 || lf >= end) return MORE;
          i = lf + 1;
          if (this.chunkDigits === 0) return INVALID;
          this.endSizeLine();
          break;
        }
        case CHUNK_DATA: {
          const take = Math.min(this.remaining, end - i);
          this.remaining -= take;
          i += take;
          if (this.remaining === 0) this.state = CHUNK_DATA_END;
          break;
        }
        case CHUNK_DATA_END: {
          const c = buf[i++];
          if (c === LF) {
            this.state = CHUNK_SIZE;
            this.chunkSize = 0;
            this.chunkDigits = 0;
          } else if (c !== CR) {
            return INVALID;
          }
          break;
        }
        case TRAILERS: {
          const c = buf[i++];
          if (c === LF) {
            if (this.lineLength === 0) return COMPLETE;
            this.lineLength = 0;
          } else if (c !== CR) {
            this.lineLength++;
          }
          break;
        }
        default:
          // UNTIL_CLOSE: everything up to the end of the connection is body.
          return MORE;
      }
    }
    return MORE;
  }

  /** After a chunk-size line: its data follows, or for the last (empty) chunk the trailers and a blank line. */
  private endSizeLine(): void {
    if (this.chunkSize === 0) {
      this.state = TRAILERS;
      this.lineLength = 0;
    } else {
      this.state = CHUNK_DATA;
      this.remaining = this.chunkSize;
    }
  }

  /**
   * Reads the head from buf[from, end), joining it to an earlier partial one. Returns the index after it, -2 when
   * more bytes are needed, -1 when it is not an HTTP/1.x response. Sets the state for what follows the head.
   */
  private readHead(buf: Buffer, from: number, end: number): number {
    if (this.pending) {
      // Rare (a head split across reads): rescan the joined bytes from the start.
      const pendingLength = this.pending.length;
      const joined = Buffer.concat([this.pending, buf.subarray(from, end)]);
      const after = this.scanHead(joined, 0, joined.length);
      if (after === -2) {
        if (joined.length > MAX_HEAD_BYTES) return -1;
        this.pending = joined;
        return -2;
      }
      this.pending = null;
      return after < 0 ? after : from + after - pendingLength;
    }
    const after = this.scanHead(buf, from, end);
    if (after === -2) {
      if (end - from > MAX_HEAD_BYTES) return -1;
      // Copied: the socket reuses its read buffer.
      this.pending = Buffer.from(buf.subarray(from, end));
    }
    return after;
  }

  /**
   * One pass over the head in plain JavaScript (a native indexOf per line costs more than the bytes do): the status
   * line, then only the headers that say how the body ends and whether the connection stays open.
   */
  private scanHead(buf: Buffer, from: number, end: number): number {
    let lineStart = from;
    let status = 0;
    let minor = 0;
    let contentLength = -1;
    let chunked = false;
    let close = false;
    let keepAlive = false;
    for (let i = from; i < end; i++) {
      if (buf[i] !== LF) continue;
      const lineEnd = i > lineStart && buf[i - 1] === CR ? i - 1 : i;
      if (lineStart === from) {
        // "HTTP/1.x NNN"
        if (lineEnd - lineStart < 12 || !nameIs(buf, lineStart, 7, 'http/1.') || buf[lineStart + 8] !== 32) return -1;
        minor = (buf[lineStart + 7] ?? 0) - 48;
        const d0 = (buf[lineStart + 9] ?? 0) - 48;
        const d1 = (buf[lineStart + 10] ?? 0) - 48;
        const d2 = (buf[lineStart + 11] ?? 0) - 48;
        if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return -1;
        status = d0 * 100 + d1 * 10 + d2;
      } else if (lineEnd === lineStart) {
        this.endHead(status, minor >= 1 ? !close : keepAlive && !close, contentLength, chunked);
        return i + 1;
      } else {
        const first = (buf[lineStart] ?? 0) | 0x20;
        if (first === 99 /* c */) {
          if (buf[lineStart + 14] === 58 && nameIs(buf, lineStart, 14, 'content-length')) {
            let v = lineStart + 15;
            while (buf[v] === 32 || buf[v] === 9) v++;
            let n = 0;
            let digits = 0;
            for (let c = buf[v] ?? 0; v < lineEnd && c >= 48 && c <= 57; c = buf[++v] ?? 0) {
              n = n * 10 + c - 48;
              digits++;
            }
            if (digits === 0 || digits > 15) return -1;
            contentLength = n;
          } else if (buf[lineStart + 10] === 58 && nameIs(buf, lineStart, 10, 'connection')) {
            if (containsWord(buf, lineStart + 11, lineEnd, 'close')) close = true;
            if (containsWord(buf, lineStart + 11, lineEnd, 'keep-alive')) keepAlive = true;
          }
        } else if (first === 116 /* t */ && buf[lineStart + 17] === 58 && nameIs(buf, lineStart, 17, 'transfer-encoding')) {
          // The last coding decides: "gzip, chunked" is chunked.
          let e = lineEnd;
          while (e > lineStart + 18 && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
          chunked = e - 7 > lineStart + 17 && nameIs(buf, e - 7, 7, 'chunked');
        }
      }
      lineStart = i + 1;
    }
    return -2;
  }

  private endHead(status: number, keepAlive: boolean, contentLength: number, chunked: boolean): void {
    this.status = status;
    this.closeAfter = !keepAlive;
    if (status < 200 && status !== 101) {
      this.state = HEAD; // informational: the final response follows on the same connection
    } else if (this.noBody || status === 204 || status === 304 || status === 101) {
      if (status === 101) this.closeAfter = true; // switched protocols: this connection is no longer HTTP/1.1
      this.state = NO_BODY;
    } else if (chunked) {
      this.state = CHUNK_SIZE;
      this.chunkSize = 0;
      this.chunkDigits = 0;
    } else if (contentLength >= 0) {
      this.remaining = contentLength;
      this.state = contentLength === 0 ? NO_BODY : LENGTH;
    } else {
      this.state = UNTIL_CLOSE;
      this.closeAfter = true;
    }
  }
}
