/**
 * The test-cmd functions that cannot pass against kube-ts, read from docs/differences.md so that the document and
 * `npm run test:cmd` share one list: the bullets `* \`run_name\`: why` of the section whose heading starts with
 * KNOWN_DIFFERENCES_HEADING, up to the next heading.
 */
export const KNOWN_DIFFERENCES_HEADING = "## kubectl's command tests";

/** Function name -> why it cannot pass. */
export function knownTestCmdDifferences(markdown: string): Map<string, string> {
  const known = new Map<string, string>();
  let inSection = false;
  for (const line of markdown.split('\n')) {
    if (/^#{1,6} /.test(line)) {
      inSection = line.startsWith(KNOWN_DIFFERENCES_HEADING);
      continue;
    }
    const entry = inSection ? /^\* `(run_\w+)`:\s*(.*)$/.exec(line) : null;
    if (entry) known.set(entry[1], entry[2]);
  }
  return known;
}
