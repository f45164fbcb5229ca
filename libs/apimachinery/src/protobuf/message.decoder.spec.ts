import { describe, expect, it } from 'vitest';
import { isStatusError } from '../status.errors';
import { bool, fieldsV1, inline, int32, int64, int64List, intOrString, KEEP, map, type MessageSpec, microTime, msg, msgList, quantity, str, strList, time } from './field.schema';
import { decodeMessage, MAX_MESSAGE_DEPTH } from './message.decoder';
import { message, pb } from './protobuf.testing';

const Leaf: MessageSpec = { 1: str('name', KEEP), 2: str('note') };

const Sample: MessageSpec = {
  1: str('s'),
  2: str('sKeep', KEEP),
  3: bool('b'),
  4: bool('bKeep', KEEP),
  5: int32('i'),
  6: int64('big', KEEP),
  7: strList('tags'),
  8: int64List('ids'),
  9: msg('leaf', Leaf),
  10: msgList('leaves', Leaf),
  11: inline('embedded', { 1: str('inlined') }),
  12: map('labels'),
  13: map('blobs', 'bytes'),
  14: map('limits', 'quantity'),
  15: time('t'),
  16: microTime('mt'),
  17: intOrString('port'),
  18: intOrString('portKeep', KEEP),
  19: quantity('size'),
  20: fieldsV1('fields'),
};

const decode = (...fields: Uint8Array[]) => decodeMessage(message(...fields), Sample);

function statusCode(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return isStatusError(err) ? err.code : -1;
  }
  return undefined;
}

describe('decodeMessage', () => {
  it('drops zero omitempty scalars (Go always sends them) and keeps zero pointer/required ones', () => {
    const { object } = decode(pb.str(1, ''), pb.str(2, ''), pb.varint(3, false), pb.varint(4, false), pb.varint(5, 0), pb.varint(6, 0), pb.intOrString(17, 0), pb.intOrString(18, 0));
    expect(object).toEqual({ sKeep: '', bKeep: false, big: 0, portKeep: 0 });
  });

  it('decodes scalars, lists (packed or not), nested and inline messages', () => {
    const packedIds = pb.bytes(8, Buffer.concat([pb.varint(1, 1), pb.varint(1, -2)].map((f) => f.subarray(1))));
    const { object, skipped } = decode(
      pb.str(1, 'x'),
      pb.varint(3, true),
      pb.varint(5, -7),
      pb.varint(6, 2 ** 40),
      pb.str(7, 'a'),
      pb.str(7, ''),
      pb.varint(8, 5),
      packedIds,
      pb.msg(9, pb.str(1, ''), pb.str(2, 'n')),
      pb.msg(10, pb.str(1, 'first')),
      pb.msg(10),
      pb.msg(11, pb.str(1, 'flat')),
    );
    expect(object).toEqual({
      s: 'x',
      b: true,
      i: -7,
      big: 2 ** 40,
      tags: ['a', ''],
      ids: [5, 1, -2],
      leaf: { name: '', note: 'n' },
      leaves: [{ name: 'first' }, {}],
      inlined: 'flat',
    });
    expect(skipped).toEqual([]);
  });

  it('merges a repeated singular message and lets the last scalar win', () => {
    const { object } = decode(pb.msg(9, pb.str(1, 'a')), pb.msg(9, pb.str(2, 'b')), pb.str(1, 'old'), pb.str(1, 'new'), pb.str(2, 'set'), pb.str(1, ''));
    expect(object).toEqual({ leaf: { name: 'a', note: 'b' }, sKeep: 'set' });
  });

  it('decodes maps of strings, bytes (base64) and quantities, with keys kept as plain data', () => {
    const { object } = decode(
      pb.entry(12, 'app', 'web'),
      pb.entry(12, '__proto__', 'x'),
      pb.msg(12, pb.str(1, 'empty')),
      pb.bytesEntry(13, 'bin', Uint8Array.of(0xff, 0, 1)),
      pb.msg(14, pb.str(1, 'cpu'), pb.quantity(2, '500m')),
      pb.msg(14, pb.str(1, 'memory')),
    );
    expect(object.labels).toEqual(JSON.parse('{"app":"web","__proto__":"x","empty":""}'));
    expect(Object.getPrototypeOf(object.labels)).toBe(Object.prototype);
    expect(object.blobs).toEqual({ bin: '/wAB' });
    expect(object.limits).toEqual({ cpu: '500m', memory: '0' });
  });

  it('formats Time with seconds and MicroTime with microseconds, in UTC; an empty Time is omitted', () => {
    const at = new Date('2024-05-06T07:08:09.123Z');
    expect(decode(pb.time(15, at), pb.time(16, at, 123_456_789)).object).toEqual({ t: '2024-05-06T07:08:09Z', mt: '2024-05-06T07:08:09.123456Z' });
    expect(decode(pb.time(16, new Date(0), 0)).object).toEqual({ mt: '1970-01-01T00:00:00.000000Z' });
    expect(decode(pb.msg(15), pb.msg(16)).object).toEqual({});
    expect(statusCode(() => decode(pb.msg(15, pb.varint(1, 400_000_000_000))))).toBe(400);
  });

  it('decodes IntOrString, Quantity and FieldsV1', () => {
    expect(decode(pb.intOrString(17, 8080), pb.intOrString(18, 'http'), pb.quantity(19, '1Gi')).object).toEqual({ port: 8080, portKeep: 'http', size: '1Gi' });
    expect(decode(pb.msg(20, pb.bytes(1, Buffer.from('{"f:data":{".":{}}}')))).object).toEqual({ fields: { 'f:data': { '.': {} } } });
    expect(statusCode(() => decode(pb.msg(20, pb.bytes(1, Buffer.from('{nope')))))).toBe(400);
  });

  it('skips unknown fields of every wire type and reports their paths', () => {
    const { object, skipped } = decode(
      pb.varint(99, 1),
      pb.fixed64(98, 1),
      pb.fixed32(97, 1),
      pb.msg(10, pb.str(1, 'a')),
      pb.msg(10, pb.str(1, 'b'), pb.str(50, 'future')),
      pb.msg(12, pb.str(1, 'k'), pb.str(2, 'v'), pb.str(3, 'extra')),
      pb.msg(11, pb.str(7, 'x')),
      pb.str(1, 'still read'),
    );
    expect(object).toEqual({ leaves: [{ name: 'a' }, { name: 'b' }], labels: { k: 'v' }, s: 'still read' });
    expect(skipped).toEqual(['#99', '#98', '#97', 'leaves[1].#50', 'labels.#3', '#7']);
  });

  it('answers 400 when a known field has the wrong wire type', () => {
    expect(statusCode(() => decode(pb.varint(1, 1)))).toBe(400);
    expect(statusCode(() => decode(pb.str(3, 'true')))).toBe(400);
    expect(statusCode(() => decode(pb.varint(9, 1)))).toBe(400);
  });

  it('caps nesting depth even for a recursive table', () => {
    const Node: Record<number, ReturnType<typeof msg>> = {};
    Node[1] = msg('child', Node);
    let bytes: Uint8Array = new Uint8Array(0);
    for (let i = 0; i <= MAX_MESSAGE_DEPTH + 1; i++) bytes = pb.msg(1, bytes);
    expect(statusCode(() => decodeMessage(bytes, Node))).toBe(400);
  });
});
