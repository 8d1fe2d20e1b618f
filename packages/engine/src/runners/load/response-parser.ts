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
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const CRLF = Buffer.from('\r\n', 'latin1');
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
  private state = HEAD;
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
          if (this.state === NO_BODY) return COMPLETE;
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
    let head = buf;
    let start = from;
    let searchFrom = from;
    const pendingLength = this.pending?.length ?? 0;
    if (this.pending) {
      head = Buffer.concat([this.pending, buf.subarray(from, end)]);
      start = 0;
      searchFrom = Math.max(0, pendingLength - 3);
    }
    const headEnd = head.indexOf(HEAD_END, searchFrom);
    if (headEnd < 0 || headEnd + 4 > (this.pending ? head.length : end)) {
      const length = (this.pending ? head.length : end) - start;
      if (length > MAX_HEAD_BYTES) return -1;
      this.pending = this.pending ? head : Buffer.from(buf.subarray(from, end));
      return -2;
    }
    if (!this.parseHead(head, start, headEnd)) return -1;
    this.pending = null;
    // Index in `buf` just after the head (`head` may start with the earlier partial bytes).
    return pendingLength > 0 ? from + headEnd + 4 - pendingLength : headEnd + 4;
  }

  private parseHead(buf: Buffer, start: number, headEnd: number): boolean {
    // "HTTP/1.x NNN"
    if (headEnd - start < 12 || !nameIs(buf, start, 7, 'http/1.') || buf[start + 8] !== 32) return false;
    const minor = (buf[start + 7] ?? 0) - 48;
    const d0 = (buf[start + 9] ?? 0) - 48;
    const d1 = (buf[start + 10] ?? 0) - 48;
    const d2 = (buf[start + 11] ?? 0) - 48;
    if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return false;
    const status = d0 * 100 + d1 * 10 + d2;

    let contentLength = -1;
    let chunked = false;
    let keepAlive = minor >= 1;
    // Header lines lie between the status line's CRLF and headEnd, each ending in CRLF (the last one at headEnd).
    let lineStart = buf.indexOf(CRLF, start) + 2;
    while (lineStart < headEnd + 2) {
      const lineEnd = buf.indexOf(CRLF, lineStart);
      const current = lineStart;
      lineStart = lineEnd + 2;
      const colon = buf.indexOf(58, current);
      if (colon < 0 || colon > lineEnd) continue;
      const nameLength = colon - current;
      let v = colon + 1;
      while (buf[v] === 32 || buf[v] === 9) v++;
      if (nameIs(buf, current, nameLength, 'content-length')) {
        let n = 0;
        let digits = 0;
        while (v < lineEnd && (buf[v] ?? 0) >= 48 && (buf[v] ?? 0) <= 57) {
          n = n * 10 + (buf[v++] ?? 0) - 48;
          digits++;
        }
        if (digits === 0 || digits > 15) return false;
        contentLength = n;
      } else if (nameIs(buf, current, nameLength, 'transfer-encoding')) {
        chunked = buf.toString('latin1', v, lineEnd).trim().toLowerCase().endsWith('chunked');
      } else if (nameIs(buf, current, nameLength, 'connection')) {
        const value = buf.toString('latin1', v, lineEnd).toLowerCase();
        if (value.includes('close')) keepAlive = false;
        else if (value.includes('keep-alive')) keepAlive = true;
      }
    }

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
    return true;
  }
}
