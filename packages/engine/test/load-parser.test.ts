import { describe, expect, it } from 'vitest';
import { COMPLETE, INVALID, MORE, ResponseParser, type ParseResult } from '../src/runners/load/response-parser.ts';

/** Feeds `text` in pieces of `step` bytes; returns the result after each piece. */
function feed(parser: ResponseParser, text: string, step = text.length): ParseResult[] {
  const bytes = Buffer.from(text, 'latin1');
  const results: ParseResult[] = [];
  for (let i = 0; i < bytes.length; i += step) {
    // A reused read buffer: stale bytes after `end` must be ignored.
    const buf = Buffer.alloc(step + 32, 'X');
    const piece = bytes.subarray(i, i + step);
    piece.copy(buf);
    results.push(parser.execute(buf, piece.length));
  }
  return results;
}

const CHUNKED =
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n' +
  '5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n';

describe('load client response parser', () => {
  it('reads a Content-Length response in one piece or byte by byte', () => {
    const text = 'HTTP/1.1 503 Service Unavailable\r\ncontent-length: 11\r\n\r\nhello world';
    const whole = new ResponseParser();
    whole.begin(false);
    expect(feed(whole, text)).toEqual([COMPLETE]);
    expect(whole.status).toBe(503);
    expect(whole.closeAfter).toBe(false);

    const bytewise = new ResponseParser();
    bytewise.begin(false);
    const results = feed(bytewise, text, 1);
    expect(results.at(-1)).toBe(COMPLETE);
    expect(results.slice(0, -1).every((r) => r === MORE)).toBe(true);
    expect(bytewise.status).toBe(503);
  });

  it('reads chunked bodies with extensions and trailers, split anywhere', () => {
    for (const step of [1, 2, 3, 7, 16, CHUNKED.length]) {
      const parser = new ResponseParser();
      parser.begin(false);
      const results = feed(parser, CHUNKED, step);
      expect(results.at(-1), `step ${step}`).toBe(COMPLETE);
      expect(results.slice(0, -1).every((r) => r === MORE), `step ${step}`).toBe(true);
      expect(parser.status).toBe(200);
    }
  });

  it('knows which responses have no body: HEAD, 204, 304, and skips 100 Continue', () => {
    const parser = new ResponseParser();
    parser.begin(true);
    expect(feed(parser, 'HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n')).toEqual([COMPLETE]);
    parser.begin(false);
    expect(feed(parser, 'HTTP/1.1 204 No Content\r\n\r\n')).toEqual([COMPLETE]);
    parser.begin(false);
    expect(feed(parser, 'HTTP/1.1 304 Not Modified\r\nContent-Length: 500\r\n\r\n')).toEqual([COMPLETE]);
    parser.begin(false);
    expect(feed(parser, 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok')).toEqual([COMPLETE]);
    expect(parser.status).toBe(201);
  });

  it('ends a body without length with the connection, and notes when the server closes', () => {
    const parser = new ResponseParser();
    parser.begin(false);
    expect(feed(parser, 'HTTP/1.1 200 OK\r\n\r\nsome body')).toEqual([MORE]);
    expect(parser.completesOnClose()).toBe(true);
    expect(parser.closeAfter).toBe(true);

    parser.begin(false);
    expect(feed(parser, 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')).toEqual([COMPLETE]);
    expect(parser.closeAfter).toBe(true);
    parser.begin(false);
    expect(feed(parser, 'HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n')).toEqual([COMPLETE]);
    expect(parser.closeAfter).toBe(true);
    parser.begin(false);
    expect(feed(parser, 'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n')).toEqual([COMPLETE]);
    expect(parser.closeAfter).toBe(false);
  });

  it('refuses what is not an HTTP/1.x response', () => {
    const parser = new ResponseParser();
    for (const text of ['SSH-2.0-OpenSSH_9.6\r\n\r\n', 'HTTP/1.1 abc\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n']) {
      parser.begin(false);
      expect(feed(parser, text), text).toContain(INVALID);
    }
  });
});
