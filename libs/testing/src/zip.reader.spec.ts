import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZipEntryFrom } from './zip.reader';

/** A minimal zip writer: local headers, central directory, end record (CRCs left 0: the reader ignores them). */
function zip(entries: Array<{ name: string; content: Buffer; deflate: boolean }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = e.deflate ? deflateRawSync(e.content) : e.content;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(e.content.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(e.content.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

describe('readZipEntryFrom', () => {
  const text = Buffer.from('helm '.repeat(1000));
  const archive = zip([
    { name: 'kubectl/kubectl', content: Buffer.from('stored bytes'), deflate: false },
    { name: 'helm/helm', content: text, deflate: true },
  ]);

  it('reads stored and deflated entries by name', () => {
    expect(readZipEntryFrom(archive, 'kubectl/kubectl').toString()).toBe('stored bytes');
    expect(readZipEntryFrom(archive, 'helm/helm').equals(text)).toBe(true);
  });

  it('says what is wrong with a missing entry or a non-zip', () => {
    expect(() => readZipEntryFrom(archive, 'helm/missing')).toThrow('helm/missing is not in the archive');
    expect(() => readZipEntryFrom(Buffer.from('not a zip at all, just text that is long enough'), 'x')).toThrow('no end of central directory');
  });
});
