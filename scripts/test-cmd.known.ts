/**
 * The test-cmd functions that cannot pass against kube-ts, read from docs/differences.md so that the document and
 * `npm run test:cmd` share one list: the bullets `* \`run_name\`: why` of the section whose heading starts with
 * KNOWN_DIFFERENCES_HEADING, up to the next heading of its level or above. Bullets under a sub-heading naming a
 * kubectl version (`### Only with kubectl 1.27`) count only when that kubectl runs the suite.
 */
export const KNOWN_DIFFERENCES_HEADING = "## kubectl's command tests";

/** Function name -> why it cannot pass, for the kubectl of minor version `kubectlMinor` (e.g. `1.27`). */
export function knownTestCmdDifferences(markdown: string, kubectlMinor?: string): Map<string, string> {
  const known = new Map<string, string>();
  let inSection = false;
  /** The kubectl version the current sub-heading limits its bullets to, if any. */
  let onlyFor: string | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,6}) /.exec(line);
    if (heading) {
      if (heading[1].length <= 2) inSection = line.startsWith(KNOWN_DIFFERENCES_HEADING);
      else if (inSection) onlyFor = /^#+ Only with kubectl (\d+\.\d+)/.exec(line)?.[1];
      if (heading[1].length <= 2) onlyFor = undefined;
      continue;
    }
    const entry = inSection ? /^\* `(run_\w+)`:\s*(.*)$/.exec(line) : null;
    if (entry && (onlyFor === undefined || onlyFor === kubectlMinor)) known.set(entry[1], entry[2]);
  }
  return known;
}
