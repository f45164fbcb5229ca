import { describe, expect, it } from 'vitest';
import { isStatusError } from '../status.errors';
import { pb } from './protobuf.testing';
import { WireReader, WireType } from './wire.reader';

function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err) && err.code === 400) return err.message;
    throw err;
  }
  throw new Error('expected a 400');
}

/** Reads the single varint field in `bytes` with the given reader method. */
function varintOf(bytes: Uint8Array, read: (r: WireReader) => number | boolean): number | boolean {
  const r = new WireReader(bytes);
  expect(r.readTag()).toEqual({ fieldNumber: 1, wireType: WireType.Varint });
  const value = read(r);
  expect(r.done).toBe(true);
  return value;
}

describe('WireReader', () => {
  it('reads int64 varints, including large and negative values', () => {
    for (const n of [0, 1, 127, 128, 300, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER, -1, -300, -(2 ** 40), Number.MIN_SAFE_INTEGER]) {
      expect(varintOf(pb.varint(1, n), (r) => r.readInt64())).toBe(n);
    }
  });

  it('reads sign-extended int32 varints and bools', () => {
    expect(varintOf(pb.varint(1, -5), (r) => r.readInt32())).toBe(-5);
    expect(varintOf(pb.varint(1, 2 ** 31 - 1), (r) => r.readInt32())).toBe(2 ** 31 - 1);
    expect(varintOf(pb.varint(1, true), (r) => r.readBool())).toBe(true);
    expect(varintOf(pb.varint(1, false), (r) => r.readBool())).toBe(false);
  });

  it('reads strings (UTF-8), bytes and embedded messages within their length', () => {
    const r = new WireReader(Buffer.concat([pb.str(1, 'héllo ☸'), pb.bytes(2, Uint8Array.of(0, 255)), pb.msg(3, pb.str(1, 'in')), pb.str(4, 'after')]));
    r.readTag();
    expect(r.readString()).toBe('héllo ☸');
    r.readTag();
    expect([...r.readBytes()]).toEqual([0, 255]);
    expect(r.readTag()).toEqual({ fieldNumber: 3, wireType: WireType.LengthDelimited });
    const sub = r.readMessage();
    expect(sub.readTag().fieldNumber).toBe(1);
    expect(sub.readString()).toBe('in');
    expect(sub.done).toBe(true);
    r.readTag();
    expect(r.readString()).toBe('after');
    expect(r.done).toBe(true);
  });

  it('skips every supported wire type', () => {
    const r = new WireReader(Buffer.concat([pb.varint(1, -1), pb.fixed64(2, 7), pb.str(3, 'skip me'), pb.fixed32(4, 9), pb.str(5, 'kept')]));
    for (let i = 0; i < 4; i++) r.skip(r.readTag().wireType);
    expect(r.readTag().fieldNumber).toBe(5);
    expect(r.readString()).toBe('kept');
  });

  it('answers 400 for truncated, overlong or invalid input', () => {
    const truncatedVarint = new WireReader(Uint8Array.of(0x08, 0x80));
    truncatedVarint.readTag();
    expect(badRequest(() => truncatedVarint.readInt64())).toContain('unexpected end of data');
    const overlong = new WireReader(Uint8Array.of(0x08, ...new Array<number>(11).fill(0xff), 0x01));
    overlong.readTag();
    expect(badRequest(() => overlong.readInt64())).toContain('longer than 10 bytes');
    const pastEnd = new WireReader(Uint8Array.of(0x0a, 0x05, 0x61));
    pastEnd.readTag();
    expect(badRequest(() => pastEnd.readString())).toContain('runs past the end');
    expect(badRequest(() => new WireReader(Uint8Array.of(0x00)).readTag())).toContain('invalid field number');
    const group = new WireReader(Uint8Array.of(0x0b));
    expect(badRequest(() => group.skip(group.readTag().wireType))).toContain('unsupported wire type 3');
    const fixed = new WireReader(Uint8Array.of(0x09, 1, 2, 3));
    expect(badRequest(() => fixed.skip(fixed.readTag().wireType))).toContain('unexpected end of data');
  });

  it('confines an embedded message to its length prefix', () => {
    // An inner length that claims more than the outer message holds is refused, even though the buffer is longer.
    const bytes = Uint8Array.of(0x0a, 0x02, 0x0a, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65);
    const outer = new WireReader(bytes);
    outer.readTag();
    const inner = outer.readMessage();
    inner.readTag();
    expect(badRequest(() => inner.readString())).toContain('runs past the end');
  });
});
