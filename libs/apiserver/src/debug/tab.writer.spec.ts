import { describe, expect, it } from 'vitest';
import { tabwrite } from './tab.writer';

describe('tabwrite (Go text/tabwriter, minwidth 8, padding 1, spaces)', () => {
  it('pads every tab-terminated cell of a column to its widest cell plus one, never the last cell of a line', () => {
    const text = 'PriorityLevelName,\tActiveQueues,\tIsIdle\na,\t0,\ttrue\n';
    expect(tabwrite(text)).toBe(`PriorityLevelName, ActiveQueues, IsIdle\n${'a,'.padEnd(19)}${'0,'.padEnd(14)}true\n`);
  });

  it('keeps the minimum width of 8 for narrow columns', () => {
    expect(tabwrite('a,\tb\ncc,\td\n')).toBe('a,      b\ncc,     d\n');
  });

  it('aligns a column only over the block of lines that have it (Go column blocks)', () => {
    // The middle line has one cell: it ends the block; the lines after it are aligned on their own.
    expect(tabwrite('aaaaaaaaaaaa,\tx\nno tabs\nb,\ty\n')).toBe('aaaaaaaaaaaa, x\nno tabs\nb,      y\n');
  });
});
