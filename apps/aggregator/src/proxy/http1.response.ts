/**
 * An incremental HTTP/1.1 response parser for the proxy's backend connections (RFC 9112): status line and
 * header fields, then the body framed by Content-Length, chunked transfer coding or the end of the connection.
 * Interim 1xx responses are skipped. Body bytes are handed on as slices of the chunks read (no copies, chunked
 * coding removed), so a watch event passes on as soon as it arrives. Node's own client does the same work with
 * far more per-request machinery (ClientRequest, agent bookkeeping, an IncomingMessage stream).
 */

export interface ResponseHead {
  status: number;
  /** Lower-cased field names; a repeated field has every value, in order. */
  headers: Record<string, string | string[]>;
  /** Content-Length, when the body is framed by it. */
  contentLength?: number;
  /** The body is of unknown length (chunked, or until the close): a stream such as a watch. */
  streamed: boolean;
  /** The connection may carry another request after this response (HTTP/1.1 without Connection: close). */
  keepAlive: boolean;
  /** Seconds from a Keep-Alive: timeout=N field: how long the server keeps an idle connection. */
  keepAliveTimeout?: number;
}

export interface ResponseHandler {
  onHead(head: ResponseHead): void;
  onBody(chunk: Buffer): void;
  /** The whole response was read; `reusable`: the connection is ready for the next request. */
  onEnd(reusable: boolean): void;
}

export class ResponseParseError extends Error {}

const MAX_HEAD_BYTES = 256 * 1024;
const MAX_CHUNK_LINE = 4096;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEX = /^[0-9A-Fa-f]{1,12}$/;
const CRLF = 0x0a;

/** Field names as sent → lower case, validated once (servers send the same few names again and again). */
const NAMES = new Map<string, string>();

function lowerName(raw: string): string {
  let name = NAMES.get(raw);
  if (name === undefined) {
    if (!TOKEN.test(raw)) throw new ResponseParseError(`malformed header name ${JSON.stringify(raw.slice(0, 60))}`);
    name = raw.toLowerCase();
    if (NAMES.size < 1024) NAMES.set(raw, name);
  }
  return name;
}

function isDigit(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
  Done,
}

/** One parser per connection, reset for every response. */
export class ResponseParser {
  private state = State.Done;
  private handler?: ResponseHandler;
  private noBody = false;
  private pending?: Buffer;
  private remaining = 0;
  private keepAlive = false;
  /** The handler takes the chunked body as it came (relayChunks). */
  private raw = false;
  /** Bytes of this response seen so far (a reused connection that fails before any may be retried). */
  received = 0;

  /** `dropped`: fields left out of `head.headers` (hop-by-hop ones a proxy must not pass on); still interpreted. */
  constructor(private readonly dropped?: ReadonlySet<string>) {}

  /** Starts a response; `head`: the request was a HEAD (the response has no body, whatever it says). */
  reset(handler: ResponseHandler, head: boolean): void {
    this.handler = handler;
    this.noBody = head;
    this.state = State.Head;
    this.pending = undefined;
    this.remaining = 0;
    this.keepAlive = false;
    this.raw = false;
    this.received = 0;
  }

  /**
   * Called from onHead: when the body is chunked, onBody gets it as it came, chunk framing included (the last chunk
   * and the trailers left out; onEnd says the body ended), for a proxy to relay to an HTTP/1.1 client without
   * framing every chunk again. Returns whether the body is chunked (else nothing changes).
   */
  relayChunks(): boolean {
    if (this.state !== State.ChunkSize) return false;
    this.raw = true;
    return true;
  }

  get done(): boolean {
    return this.state === State.Done;
  }

  /** Whether the end of the connection ends the response properly (a body delimited by the close). */
  get endsWithClose(): boolean {
    return this.state === State.UntilClose;
  }

  /** The connection was closed by the server: ends a close-delimited body, else the response was cut. */
  finish(): void {
    if (this.state === State.Done) return;
    if (this.state !== State.UntilClose) throw new ResponseParseError(this.received ? 'the backend closed the connection before the response ended' : 'the backend closed the connection');
    this.state = State.Done;
    this.handler?.onEnd(false);
  }

  execute(chunk: Buffer): void {
    this.received += chunk.length;
    let data = chunk;
    if (this.pending) {
      data = Buffer.concat([this.pending, chunk]);
      this.pending = undefined;
    }
    let at = 0;
    /** Where the chunked bytes not yet handed on begin (raw mode), else -1. */
    let rawFrom = -1;
    while (at < data.length) {
      switch (this.state) {
        case State.Head: {
          const end = data.indexOf('\r\n\r\n', at, 'latin1');
          if (end < 0) return this.keep(data, at, MAX_HEAD_BYTES, 'response header');
          this.parseHead(data.toString('latin1', at, end));
          at = end + 4;
          if (this.raw) rawFrom = at;
          break;
        }
        case State.Length: {
          const n = Math.min(this.remaining, data.length - at);
          this.remaining -= n;
          this.body(data, at, at + n);
          at += n;
          if (this.remaining === 0) this.end(true);
          break;
        }
        case State.ChunkSize: {
          if (this.raw && rawFrom < 0) rawFrom = at;
          const eol = data.indexOf(CRLF, at);
          if (eol < 0) return this.keepRaw(data, rawFrom, at, MAX_CHUNK_LINE, 'chunk size line');
          const line = data.toString('latin1', at, eol > at && data[eol - 1] === 0x0d ? eol - 1 : eol);
          const semi = line.indexOf(';');
          const hex = (semi < 0 ? line : line.slice(0, semi)).trim();
          if (!HEX.test(hex)) throw new ResponseParseError(`invalid chunk size ${JSON.stringify(line.slice(0, 40))}`);
          this.remaining = parseInt(hex, 16);
          this.state = this.remaining === 0 ? State.Trailers : State.ChunkData;
          if (this.remaining === 0 && rawFrom >= 0) {
            // The last chunk is not relayed: whoever ends the relayed body writes its own.
            this.body(data, rawFrom, at);
            rawFrom = -1;
          }
          at = eol + 1;
          break;
        }
        case State.ChunkData: {
          if (this.raw && rawFrom < 0) rawFrom = at;
          const n = Math.min(this.remaining, data.length - at);
          this.remaining -= n;
          if (!this.raw) this.body(data, at, at + n);
          at += n;
          if (this.remaining === 0) this.state = State.ChunkDataEnd;
          break;
        }
        case State.ChunkDataEnd: {
          // The CRLF after a chunk's data.
          if (this.raw && rawFrom < 0) rawFrom = at;
          if (data.length - at < 2) return this.keepRaw(data, rawFrom, at, 2, 'chunk');
          if (data[at] !== 0x0d || data[at + 1] !== CRLF) throw new ResponseParseError('missing CRLF after chunk data');
          at += 2;
          this.state = State.ChunkSize;
          break;
        }
        case State.Trailers: {
          // Trailer fields are read and dropped (hop-by-hop here); an empty line ends the message.
          const eol = data.indexOf(CRLF, at);
          if (eol < 0) return this.keep(data, at, MAX_HEAD_BYTES, 'trailer');
          const empty = eol === at || (eol === at + 1 && data[at] === 0x0d);
          at = eol + 1;
          if (empty) this.end(true);
          break;
        }
        case State.UntilClose:
          this.body(data, at, data.length);
          at = data.length;
          break;
        case State.Done:
          // Bytes after the end of the response: the connection is out of step, never reuse it.
          throw new ResponseParseError('unexpected data after the response');
      }
    }
    if (rawFrom >= 0) this.body(data, rawFrom, at);
  }

  /** keep(), handing on the raw bytes before `at` first. */
  private keepRaw(data: Buffer, rawFrom: number, at: number, limit: number, what: string): void {
    if (rawFrom >= 0) this.body(data, rawFrom, at);
    this.keep(data, at, limit, what);
  }

  private keep(data: Buffer, at: number, limit: number, what: string): void {
    if (data.length - at > limit) throw new ResponseParseError(`${what} too long`);
    this.pending = at === 0 ? data : data.subarray(at);
  }

  private body(data: Buffer, from: number, to: number): void {
    if (to > from) this.handler?.onBody(from === 0 && to === data.length ? data : data.subarray(from, to));
  }

  private end(reusable: boolean): void {
    this.state = State.Done;
    this.handler?.onEnd(reusable && this.keepAlive);
  }

  private parseHead(text: string): void {
    // "HTTP/1.x NNN reason": checked by character, no regex or split (this runs once per proxied request).
    const lineEnd = text.indexOf('\r\n');
    const statusEnd = lineEnd < 0 ? text.length : lineEnd;
    if (!text.startsWith('HTTP/1.') || statusEnd < 12 || (text[7] !== '0' && text[7] !== '1') || text[8] !== ' ' || !isDigit(text, 9) || !isDigit(text, 10) || !isDigit(text, 11) || (statusEnd > 12 && text[12] !== ' ')) {
      throw new ResponseParseError(`malformed status line ${JSON.stringify(text.slice(0, Math.min(statusEnd, 60)))}`);
    }
    const minor = text[7];
    const code = (text.charCodeAt(9) - 48) * 100 + (text.charCodeAt(10) - 48) * 10 + (text.charCodeAt(11) - 48);
    const headers: Record<string, string | string[]> = {};
    let contentLength: number | undefined;
    let transferEncoding: string | undefined;
    let connection = '';
    let keepAliveTimeout: number | undefined;
    let at = lineEnd < 0 ? text.length : lineEnd + 2;
    while (at < text.length) {
      let end = text.indexOf('\r\n', at);
      if (end < 0) end = text.length;
      const colon = text.indexOf(':', at);
      if (colon <= at || colon > end) throw new ResponseParseError(`malformed header line ${JSON.stringify(text.slice(at, Math.min(end, at + 60)))}`);
      const name = lowerName(text.slice(at, colon));
      let from = colon + 1;
      let to = end;
      while (from < to && isSpace(text.charCodeAt(from))) from++;
      while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
      const value = text.slice(from, to);
      at = end + 2;
      if (!this.dropped?.has(name)) {
        const prior = headers[name];
        headers[name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
      }
      switch (name) {
        case 'content-length': {
          if (!/^\d{1,15}$/.test(value) || (contentLength !== undefined && contentLength !== Number(value))) throw new ResponseParseError('invalid Content-Length');
          contentLength = Number(value);
          break;
        }
        case 'transfer-encoding':
          transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
          break;
        case 'connection':
          connection += `${value.toLowerCase()},`;
          break;
        case 'keep-alive': {
          const t = /(?:^|[,\s])timeout=(\d+)/i.exec(value);
          if (t) keepAliveTimeout = Number(t[1]);
          break;
        }
      }
    }
    if (code >= 100 && code < 200) {
      // 101 is never asked for on this path (upgrades have their own); other 1xx are interim: the real
      // response follows.
      if (code === 101) throw new ResponseParseError('unexpected 101 Switching Protocols');
      return;
    }
    const tokens = connection === '' ? [] : connection.split(',').map((t) => t.trim());
    this.keepAlive = minor === '1' ? !tokens.includes('close') : tokens.includes('keep-alive');
    let framing: State;
    if (this.noBody || code === 204 || code === 304) framing = State.Done;
    else if (transferEncoding !== undefined) {
      // RFC 9112 6.3: Transfer-Encoding wins over Content-Length (and such a connection is not reused); a final
      // coding other than chunked is delimited by the close.
      const codings = transferEncoding.toLowerCase().split(',').map((t) => t.trim());
      framing = codings[codings.length - 1] === 'chunked' ? State.ChunkSize : State.UntilClose;
      if (contentLength !== undefined || framing === State.UntilClose) this.keepAlive = false;
      contentLength = undefined;
      delete headers['content-length'];
    } else if (contentLength !== undefined) framing = contentLength === 0 ? State.Done : State.Length;
    else {
      framing = State.UntilClose;
      this.keepAlive = false;
    }
    this.remaining = framing === State.Length ? (contentLength as number) : 0;
    this.state = framing;
    const streamed = framing === State.ChunkSize || framing === State.UntilClose;
    this.handler?.onHead({ status: code, headers, contentLength: streamed ? undefined : contentLength, streamed, keepAlive: this.keepAlive, keepAliveTimeout });
    if (framing === State.Done && this.handler) this.end(true);
  }
}
