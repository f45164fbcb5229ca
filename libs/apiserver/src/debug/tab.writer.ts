/**
 * Go's text/tabwriter as kube's debug dumps configure it (minwidth 8, tabwidth 0, padding 1, padchar ' ', no
 * flags): each line is a list of cells, every cell but the last one tab-terminated; a column block (consecutive
 * lines that all have a tab-terminated cell in that column) is padded to its widest cell plus the padding.
 */
export interface TabWriterOptions {
  minwidth: number;
  padding: number;
}

const KUBE_DUMP: TabWriterOptions = { minwidth: 8, padding: 1 };

export function tabwrite(text: string, options: TabWriterOptions = KUBE_DUMP): string {
  const trailingNewline = text.endsWith('\n');
  const lines = (trailingNewline ? text.slice(0, -1) : text).split('\n').map((l) => l.split('\t'));
  const out: string[] = [];
  const widths: number[] = [];

  const writeLines = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const line = lines[i];
      let s = '';
      for (let j = 0; j < line.length; j++) {
        const cell = line[j];
        // A tab-terminated cell in a column with a width is padded; the last cell of a line never is.
        s += j < widths.length && j < line.length - 1 ? cell.padEnd(widths[j], ' ') : cell;
      }
      out.push(s);
    }
  };

  // Go's Writer.format, recursive over column blocks.
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let t = line0; t < line1; t++) {
      if (column >= lines[t].length - 1) continue;
      writeLines(line0, t);
      line0 = t;
      let width = options.minwidth;
      for (; t < line1; t++) {
        const line = lines[t];
        if (column >= line.length - 1) break;
        width = Math.max(width, [...line[column]].length + options.padding);
      }
      widths.push(width);
      format(line0, t);
      widths.pop();
      line0 = t;
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out.join('\n') + (trailingNewline ? '\n' : '');
}
