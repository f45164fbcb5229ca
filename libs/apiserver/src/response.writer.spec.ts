import { describe, expect, it } from 'vitest';
import { warningHeaders } from './response.writer';

/** A header value as the client reads it: the bytes on the wire, decoded as UTF-8. */
const onTheWire = (values: string[]): string[] => values.map((v) => Buffer.from(v, 'latin1').toString('utf8'));

describe('warningHeaders (kube\'s warning recorder and net.NewWarningHeader)', () => {
  it('quotes each text once, escaping " and \\', () => {
    expect(warningHeaders(['a', 'unknown field "x\\y"', 'a'])).toEqual(['299 - "a"', '299 - "unknown field \\"x\\\\y\\""']);
  });

  it('sends user text beyond Latin-1 as UTF-8 bytes, and a lone surrogate as U+FFFD (as Go decoded it)', () => {
    const values = warningHeaders(['unknown field "名前"', 'unknown field "x\ud800"', 'emoji 😀']);
    // Every value is a valid Node header string (no character above U+00FF).
    for (const v of values) expect(v).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
    expect(onTheWire(values)).toEqual(['299 - "unknown field \\"名前\\""', '299 - "unknown field \\"x\ufffd\\""', '299 - "emoji 😀"']);
  });

  it('drops a text holding control characters (C0, DEL, C1), as kube refuses to make such a header', () => {
    expect(warningHeaders(['a\u0000b', 'tab\there', 'del\u007f', 'c1\u0085', 'fine', ''])).toEqual(['299 - "fine"']);
  });

  it('cuts every text to 256 characters once they total more than 4096', () => {
    const long = 'x'.repeat(3000);
    expect(warningHeaders([long])).toEqual([`299 - "${long}"`]);
    const cut = warningHeaders([long, `${long}y`]);
    expect(cut).toEqual([`299 - "${'x'.repeat(256)}"`, `299 - "${'x'.repeat(256)}"`]);
  });
});
