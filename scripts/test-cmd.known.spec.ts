import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownTestCmdDifferences } from './test-cmd.known';
import { parseResultLine } from './test-cmd';

describe('test-cmd known differences', () => {
  it('reads only the bullets of its own section', () => {
    const md = [
      '# Differences',
      '* `run_elsewhere_tests`: not in the section',
      "## kubectl's command tests that cannot pass",
      'Some prose.',
      '* `run_a_tests`: needs a kubelet',
      '* `run_b_tests`: needs a node',
      '## Next',
      '* `run_c_tests`: after the section',
    ].join('\n');
    expect([...knownTestCmdDifferences(md)]).toEqual([
      ['run_a_tests', 'needs a kubelet'],
      ['run_b_tests', 'needs a node'],
    ]);
  });

  it('docs/differences.md has the section, each entry with a reason', () => {
    const known = knownTestCmdDifferences(readFileSync(join(__dirname, '..', 'docs', 'differences.md'), 'utf8'));
    for (const [name, why] of known) expect(why, name).not.toBe('');
  });

  it("parses run.sh's result lines", () => {
    expect(parseResultLine('PASS run_pod_tests')).toEqual({ name: 'run_pod_tests', passed: true });
    expect(parseResultLine('FAIL run_pod_tests: Error in x -- y')).toEqual({ name: 'run_pod_tests', passed: false, why: 'Error in x -- y' });
    expect(parseResultLine('test-cmd: 1/2 functions pass')).toBeUndefined();
  });
});
