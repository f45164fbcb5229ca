/** The kill suite's judges: they must catch a lost write, a stale final state, a missed or made-up watch event. */
import { describe, expect, it } from 'vitest';
import { type HistoryEvent, lostWrites, prefixOf, watchGaps } from './etcd.history';
import type { Attempt, Segment } from './load';

const P = '/registry/configmaps/chaos/';
const put = (name: string, rev: number, created = false): HistoryEvent => ({ key: P + name, type: 'Put', rev, created });
const del = (name: string, rev: number): HistoryEvent => ({ key: P + name, type: 'Delete', rev, created: false });
const history = [put('a', 10, true), put('x', 11, true), put('a', 12), del('a', 13), put('b', 14, true), put('b', 15)];

describe('lostWrites', () => {
  const cycle: Attempt[] = [
    { name: 'a', op: 'create', acked: true, rv: 10 },
    { name: 'a', op: 'update', acked: true, rv: 12 },
    { name: 'a', op: 'delete', acked: true, rv: 12 },
    { name: 'b', op: 'create', acked: true, rv: 14 },
    { name: 'b', op: 'update', acked: true, rv: 15 },
  ];

  it('finds nothing when etcd has every acknowledged write and the last one stands', () => {
    expect(lostWrites(cycle, history, P, new Map([[P + 'b', 15]]))).toEqual([]);
  });

  it('reports an acknowledged write etcd does not have', () => {
    const lost = lostWrites([...cycle, { name: 'b', op: 'update', acked: true, rv: 16 }], history, P, new Map([[P + 'b', 15]]));
    expect(lost).toEqual(['b: acknowledged update at 16 is not in etcd\'s history', 'b: last acknowledged update at 16, but at 15']);
  });

  it('reports an acknowledged delete that did not happen, and a last write that does not stand', () => {
    expect(lostWrites(cycle, history.filter((e) => e.type !== 'Delete'), P, new Map([[P + 'a', 12], [P + 'b', 15]]))).toEqual([
      'a: acknowledged delete (after 12) is not in etcd\'s history',
      'a: deleted (acknowledged) but present at 12',
    ]);
    expect(lostWrites(cycle, history, P, new Map())).toEqual(['b: last acknowledged update at 15, but gone']);
  });

  it('allows what an unacknowledged attempt after the last acknowledged write may have done', () => {
    const unsure: Attempt[] = [...cycle, { name: 'b', op: 'delete', acked: false }];
    expect(lostWrites(unsure, history, P, new Map())).toEqual([]);
    expect(lostWrites(unsure, history, P, new Map([[P + 'b', 14]]))).toEqual(['b: last acknowledged update at 15, but at 14']);
  });
});

describe('watchGaps', () => {
  const segment = (start: number, end: number, events: Segment['events']): Segment => ({ start, end, events, outOfOrder: [] });
  const exact: Segment['events'] = [
    { type: 'MODIFIED', rv: 12, name: 'a' },
    { type: 'DELETED', rv: 13, name: 'a' },
    { type: 'ADDED', rv: 14, name: 'b' },
    { type: 'MODIFIED', rv: 15, name: 'b' },
  ];

  it('accepts exactly the prefix\'s events in the segment', () => {
    expect(watchGaps([segment(11, 15, exact)], history, P)).toEqual([]);
  });

  it('reports a missed event, a wrong type and an event etcd does not have', () => {
    const [modified, , added, last] = exact;
    const seen = segment(11, 15, [modified, { ...added, type: 'MODIFIED' }, last, { ...last, rv: 16 }]);
    expect(watchGaps([seen], history, P)).toEqual([
      'missed DELETED a at 13 (segment 11..15)',
      'at 14 saw MODIFIED b, etcd has ADDED b',
      'saw MODIFIED b at 16, which etcd does not have for the prefix',
    ]);
  });

  it('reports resourceVersions that do not increase', () => {
    expect(watchGaps([{ ...segment(15, 15, []), outOfOrder: ['MODIFIED b at 15 after 15'] }], history, P)).toEqual(['out of order: MODIFIED b at 15 after 15']);
  });
});

describe('prefixOf', () => {
  it('finds the etcd prefix of a collection from one of its keys', () => {
    expect(prefixOf(history, 'chaos', 'b')).toBe(P);
    expect(prefixOf(history, 'chaos', 'nope')).toBeUndefined();
  });
});
