/**
 * A protobuf writer into one growing buffer. protobufjs's Writer queues an operation object per field and copies
 * at the end; this writes bytes in place. A nested message reserves one length byte and, in the rare case its
 * body passes 127 bytes, moves that body right by the extra length bytes: one memmove per large message, no
 * allocation per field. Output equals protobufjs's (and Go's) byte for byte.
 */
export class ProtoWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(size = 4096) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A varint of a non-negative number below 2^32 (tags, lengths, uint32). */
  uint32(v: number): this {
    this.ensure(5);
    const b = this.buf;
    let p = this.pos;
    while (v > 127) {
      b[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    b[p++] = v;
    this.pos = p;
    return this;
  }

  /** int32 and int64 alike: negative numbers take ten bytes (two's complement on 64 bits), as Go writes them. */
  int64(v: number): this {
    if (v >= 0 && v <= 0xffffffff && Number.isInteger(v)) return this.uint32(v);
    let x = BigInt.asUintN(64, BigInt(Math.trunc(v)));
    this.ensure(10);
    while (x > 127n) {
      this.buf[this.pos++] = Number(x & 127n) | 128;
      x >>= 7n;
    }
    this.buf[this.pos++] = Number(x);
    return this;
  }

  bool(v: boolean): this {
    return this.uint32(v ? 1 : 0);
  }

  double(v: number): this {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
    return this;
  }

  string(s: string): this {
    const n = s.length;
    if (n < 128) {
      // Most strings of an object are short ASCII: copied by hand, their one-byte length known up front
      // (Buffer's UTF-8 calls cost more than the copy for them).
      this.ensure(n + 1);
      const b = this.buf;
      let p = this.pos + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i === n) {
        b[this.pos] = n;
        this.pos = p;
        return this;
      }
    }
    const len = Buffer.byteLength(s);
    this.uint32(len);
    this.ensure(len);
    this.pos += this.buf.write(s, this.pos, len, 'utf8');
    return this;
  }

  bytes(v: Uint8Array): this {
    this.uint32(v.length);
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  /** Bytes as they are, no length (the envelope's "k8s\0"). */
  raw(v: Uint8Array): this {
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  /** Starts a length-delimited body; pass the returned mark to ldelim. */
  fork(): number {
    this.ensure(1);
    return this.pos++;
  }

  ldelim(mark: number): this {
    const len = this.pos - mark - 1;
    if (len < 128) {
      this.buf[mark] = len;
      return this;
    }
    let size = 1;
    for (let v = len >>> 7; v > 0; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(mark + size, mark + 1, this.pos);
    this.pos += size - 1;
    let p = mark;
    let v = len;
    while (v > 127) {
      this.buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[p] = v;
    return this;
  }

  /** The bytes written, in memory of their own (a cached object's bytes must not pin a shared buffer). */
  finish(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }

  reset(): this {
    this.pos = 0;
    return this;
  }
}

const shared = new ProtoWriter(64 * 1024);
let sharedBusy = false;

/** Runs `write` on a reset writer (the shared one unless already in use) and returns its bytes. */
export function encodeWith(write: (w: ProtoWriter) => void): Buffer {
  if (sharedBusy) {
    const w = new ProtoWriter(256);
    write(w);
    return w.finish();
  }
  sharedBusy = true;
  try {
    write(shared.reset());
    return shared.finish();
  } finally {
    sharedBusy = false;
  }
}
