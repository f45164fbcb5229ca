import { Errors } from '../status.errors';

/** Protobuf wire types; groups (3, 4) are deprecated and never produced by Kubernetes, so they are refused. */
export const WireType = { Varint: 0, Fixed64: 1, LengthDelimited: 2, Fixed32: 5 } as const;
export type WireType = (typeof WireType)[keyof typeof WireType];

export interface FieldTag {
  readonly fieldNumber: number;
  readonly wireType: number;
}

const TWO_32 = 2 ** 32;
const MAX_VARINT_BYTES = 10;
const MAX_FIELD_NUMBER = 2 ** 29 - 1;

function malformed(what: string): Error {
  return Errors.badRequest(`the protobuf request body is malformed: ${what}`);
}

/**
 * A bounds-checked cursor over one protobuf message. Every read either advances or throws a 400, so a
 * hostile body can neither hang the decoder nor read past its own length prefix.
 */
export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  readTag(): FieldTag {
    const [lo, hi] = this.varint();
    const fieldNumber = lo >>> 3;
    if (hi !== 0 || fieldNumber === 0 || fieldNumber > MAX_FIELD_NUMBER) throw malformed(`invalid field number at byte ${this.pos}`);
    return { fieldNumber, wireType: lo & 7 };
  }

  /** A two's-complement int64 varint as a JS number (exact up to 2^53, as for any JSON reader of the result). */
  readInt64(): number {
    const [lo, hi] = this.varint();
    if (hi & 0x80000000) {
      const negLo = (~lo + 1) >>> 0;
      const negHi = (~hi + (negLo === 0 ? 1 : 0)) >>> 0;
      return -(negHi * TWO_32 + negLo);
    }
    return hi * TWO_32 + lo;
  }

  /** int32: negative values arrive sign-extended to ten bytes; the low 32 bits carry the value. */
  readInt32(): number {
    return this.varint()[0] | 0;
  }

  readBool(): boolean {
    const [lo, hi] = this.varint();
    return lo !== 0 || hi !== 0;
  }

  readBytes(): Uint8Array {
    const length = this.readLength();
    const bytes = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return bytes;
  }

  readString(): string {
    const bytes = this.readBytes();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }

  /** A reader confined to the next length-delimited field (an embedded message or a packed list). */
  readMessage(): WireReader {
    const length = this.readLength();
    const sub = new WireReader(this.buf, this.pos, this.pos + length);
    this.pos += length;
    return sub;
  }

  /** Skips a field this decoder does not know, by its wire type alone. */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Fixed64:
        this.advance(8);
        return;
      case WireType.LengthDelimited:
        this.advance(this.readLength());
        return;
      case WireType.Fixed32:
        this.advance(4);
        return;
      default:
        throw malformed(`unsupported wire type ${wireType} at byte ${this.pos}`);
    }
  }

  private readLength(): number {
    const [lo, hi] = this.varint();
    if (hi !== 0 || lo > this.end - this.pos) throw malformed(`a length prefix at byte ${this.pos} runs past the end of its message`);
    return lo;
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw malformed(`unexpected end of data at byte ${this.pos}`);
    this.pos += n;
  }

  /** Reads up to ten bytes into two unsigned 32-bit halves (bits past 64 are dropped, as Go does). */
  private varint(): [lo: number, hi: number] {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      if (this.pos >= this.end) throw malformed(`unexpected end of data in a varint at byte ${this.pos}`);
      const byte = this.buf[this.pos++];
      const bits = byte & 0x7f;
      const shift = i * 7;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= bits << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (shift - 32);
      if (byte < 0x80) return [lo >>> 0, hi >>> 0];
    }
    throw malformed(`a varint longer than ${MAX_VARINT_BYTES} bytes at byte ${this.pos}`);
  }
}
