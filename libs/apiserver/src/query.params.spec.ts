import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { listOptions, parseInt64, queryBool, queryOptionalBool } from './query.params';

const q = (s: string): URLSearchParams => new URLSearchParams(s);

describe('query parameters as kube decodes them', () => {
  it('booleans: false only when absent, "0" or "false" in any case', () => {
    for (const v of ['true', 'T', '1', 'yes', '', 'anything']) expect(queryBool(q(`b=${v}`), 'b'), v).toBe(true);
    for (const v of ['false', 'FALSE', 'fAlSe', '0']) expect(queryBool(q(`b=${v}`), 'b'), v).toBe(false);
    expect(queryBool(q(''), 'b')).toBe(false);
    expect(queryOptionalBool(q(''), 'b')).toBeUndefined();
    expect(queryBool(q('b=0&b=1'), 'b')).toBe(false);
  });

  it('integers: strconv.ParseInt base 10 with its error texts', () => {
    expect(parseInt64('+42')).toBe(42);
    expect(parseInt64('-7')).toBe(-7);
    for (const [v, m] of [
      ['0x10', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
      ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ]) {
      try {
        parseInt64(v);
        expect.unreachable();
      } catch (err) {
        expect(isStatusError(err) && err.status).toMatchObject({ code: 400, reason: 'BadRequest', message: m });
      }
    }
  });

  it('a watch without resourceVersion defaults to WatchList (sendInitialEvents, NotOlderThan)', () => {
    expect(listOptions(q('allowWatchBookmarks=1'), true)).toMatchObject({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    expect(listOptions(q('resourceVersion=5'), true).sendInitialEvents).toBeUndefined();
    expect(listOptions(q(''), false).sendInitialEvents).toBeUndefined();
  });
});
