import { describe, expect, it } from 'vitest';
import { ResponseParseError, ResponseParser, type ResponseHead } from './http1.response';

interface Parsed {
  heads: ResponseHead[];
  body: string;
  ends: boolean[];
}

/** Feeds `wire` to a parser in pieces of `step` bytes (every split point is a case the parser must handle). */
function parse(wire: string, step = wire.length, opts: { head?: boolean; dropped?: string[] } = {}): Parsed {
  const out: Parsed = { heads: [], body: '', ends: [] };
  const parser = new ResponseParser(new Set(opts.dropped ?? []));
  parser.reset({ onHead: (h) => out.heads.push(h), onBody: (c) => (out.body += c.toString('latin1')), onEnd: (r) => out.ends.push(r) }, opts.head ?? false);
  const bytes = Buffer.from(wire, 'latin1');
  for (let at = 0; at < bytes.length; at += step) parser.execute(bytes.subarray(at, at + step));
  return out;
}

const CHUNKED = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n3;ext=1\r\nabc\r\n0\r\nX-Trailer: t\r\n\r\n';

describe('ResponseParser', () => {
  it('reads a sized response, with lower-cased and repeated fields, and keeps the connection', () => {
    const r = parse('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nWarning: 299 - "a"\r\nwarning: 299 - "b"\r\nContent-Length: 5\r\nKeep-Alive: timeout=65\r\n\r\nhello');
    expect(r.heads).toHaveLength(1);
    expect(r.heads[0]).toMatchObject({ status: 200, contentLength: 5, streamed: false, keepAlive: true, keepAliveTimeout: 65 });
    expect(r.heads[0].headers).toEqual({ 'content-type': 'application/json', warning: ['299 - "a"', '299 - "b"'], 'content-length': '5', 'keep-alive': 'timeout=65' });
    expect(r.body).toBe('hello');
    expect(r.ends).toEqual([true]);
  });

  it('decodes chunked bodies split at any byte, dropping extensions and trailers', () => {
    for (const step of [1, 2, 3, 5, 7, 11, 1000]) {
      const r = parse(CHUNKED, step);
      expect(r.heads[0]).toMatchObject({ contentLength: undefined, streamed: true });
      expect(r.body).toBe('{"a":1}abc');
      expect(r.ends).toEqual([true]);
    }
  });

  it('relays a chunked body as it came when asked (framing kept, the last chunk and trailers left out), split at any byte', () => {
    for (const step of [1, 2, 3, 5, 7, 11, 1000]) {
      const out: Parsed = { heads: [], body: '', ends: [] };
      const parser = new ResponseParser();
      parser.reset({ onHead: (h) => (out.heads.push(h), expect(parser.relayChunks()).toBe(true)), onBody: (c) => (out.body += c.toString('latin1')), onEnd: (r) => out.ends.push(r) }, false);
      const bytes = Buffer.from(CHUNKED, 'latin1');
      for (let at = 0; at < bytes.length; at += step) parser.execute(bytes.subarray(at, at + step));
      expect(out.body).toBe('7\r\n{"a":1}\r\n3;ext=1\r\nabc\r\n');
      expect(out.ends).toEqual([true]);
    }
    // A sized body is not chunked: relayChunks changes nothing.
    const parser = new ResponseParser();
    let body = '';
    parser.reset({ onHead: () => expect(parser.relayChunks()).toBe(false), onBody: (c) => (body += c.toString('latin1')), onEnd: () => undefined }, false);
    parser.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'));
    expect(body).toBe('hello');
  });

  it('leaves dropped (hop-by-hop) fields out of the headers but still honours them', () => {
    const r = parse('HTTP/1.1 200 OK\r\nConnection: close\r\nAudit-Id: x\r\nContent-Length: 2\r\n\r\nok', undefined, { dropped: ['connection', 'audit-id'] });
    expect(r.heads[0].headers).toEqual({ 'content-length': '2' });
    expect(r.ends).toEqual([false]);
  });

  it('drops Content-Length when Transfer-Encoding frames the body, and never reuses such a connection', () => {
    const r = parse('HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n');
    expect(r.heads[0].headers['content-length']).toBeUndefined();
    expect(r.body).toBe('ok');
    expect(r.ends).toEqual([false]);
  });

  it('skips interim 1xx responses', () => {
    const r = parse('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n', 4);
    expect(r.heads.map((h) => h.status)).toEqual([201]);
    expect(r.ends).toEqual([true]);
  });

  it('has no body for HEAD requests, 204 and 304', () => {
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n', undefined, { head: true })).toMatchObject({ body: '', ends: [true] });
    expect(parse('HTTP/1.1 204 No Content\r\n\r\n')).toMatchObject({ body: '', ends: [true] });
    expect(parse('HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n')).toMatchObject({ body: '', ends: [true] });
  });

  it('reads a body without framing until the connection closes', () => {
    const parser = new ResponseParser();
    let body = '';
    const ends: boolean[] = [];
    parser.reset({ onHead: () => undefined, onBody: (c) => (body += c.toString()), onEnd: (r) => ends.push(r) }, false);
    parser.execute(Buffer.from('HTTP/1.0 200 OK\r\n\r\nsome'));
    parser.execute(Buffer.from(' more'));
    expect(parser.endsWithClose).toBe(true);
    parser.finish();
    expect(body).toBe('some more');
    expect(ends).toEqual([false]);
  });

  it('reports a cut response and counts the bytes seen', () => {
    const parser = new ResponseParser();
    parser.reset({ onHead: () => undefined, onBody: () => undefined, onEnd: () => undefined }, false);
    expect(parser.received).toBe(0);
    parser.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(parser.received).toBeGreaterThan(0);
    expect(() => parser.finish()).toThrow(ResponseParseError);
  });

  it('refuses malformed responses', () => {
    expect(() => parse('HTTP/2 200 OK\r\n\r\n')).toThrow(ResponseParseError);
    expect(() => parse('HTTP/1.1 20 OK\r\n\r\n')).toThrow(ResponseParseError);
    expect(() => parse('HTTP/1.1 200 OK\r\nbad line\r\n\r\n')).toThrow(ResponseParseError);
    expect(() => parse('HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n')).toThrow(ResponseParseError);
    expect(() => parse('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx')).toThrow(ResponseParseError);
    expect(() => parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n')).toThrow(ResponseParseError);
    expect(() => parse('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy')).toThrow(/after the response/);
    expect(() => parse('HTTP/1.1 101 Switching Protocols\r\n\r\n')).toThrow(ResponseParseError);
  });
});
