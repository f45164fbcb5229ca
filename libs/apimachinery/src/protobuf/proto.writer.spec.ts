import { Writer } from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { encodeWith, ProtoWriter } from './proto.writer';

describe('ProtoWriter', () => {
  it('writes what protobufjs writes: varints of every size, negative and 64-bit numbers, UTF-8, doubles', () => {
    const numbers = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31 - 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, -1, -128, -(2 ** 31), -(2 ** 40)];
    const ours = new ProtoWriter(8);
    const theirs = Writer.create();
    for (const n of numbers) {
      ours.uint32(8).int64(n);
      theirs.uint32(8).int64(n);
    }
    for (const s of ['', 'a', 'é名😀', 'x'.repeat(300)]) {
      ours.uint32(0x12).string(s);
      theirs.uint32(0x12).string(s);
    }
    ours.uint32(0x19).double(1.5).uint32(0x20).bool(true).uint32(0x2a).bytes(Buffer.from([0, 1, 255]));
    theirs.uint32(0x19).double(1.5).uint32(0x20).bool(true).uint32(0x2a).bytes(Buffer.from([0, 1, 255]));
    expect(ours.finish().toString('hex')).toBe(Buffer.from(theirs.finish()).toString('hex'));
  });

  it('nests bodies of any length, moving a long body once for its longer length prefix', () => {
    for (const size of [0, 5, 127, 128, 300, 16_383, 16_384, 70_000]) {
      const inner = 'y'.repeat(size);
      const ours = encodeWith((w) => {
        const outer = w.uint32(0x0a).fork();
        const mid = w.uint32(0x12).fork();
        w.uint32(0x1a).string(inner).ldelim(mid).uint32(0x20).uint32(7);
        w.ldelim(outer);
      });
      const theirs = Writer.create().uint32(0x0a).fork().uint32(0x12).fork().uint32(0x1a).string(inner).ldelim().uint32(0x20).uint32(7).ldelim().finish();
      expect(ours.toString('hex'), `body of ${size}`).toBe(Buffer.from(theirs).toString('hex'));
    }
  });

  it('gives a nested encodeWith its own writer', () => {
    const out = encodeWith((w) => {
      const inner = encodeWith((x) => x.uint32(0x0a).string('inner'));
      w.uint32(0x12).bytes(inner);
    });
    expect(out.toString('hex')).toBe(Buffer.from(Writer.create().uint32(0x12).bytes(Writer.create().uint32(0x0a).string('inner').finish()).finish()).toString('hex'));
  });
});
