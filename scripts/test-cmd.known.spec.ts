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

  it('counts the bullets of a sub-heading naming a kubectl version only for that kubectl', () => {
    const md = [
      "## kubectl's command tests that cannot pass",
      '* `run_a_tests`: any kubectl',
      '### Only with kubectl 1.27',
      '* `run_b_tests`: kubectl 1.27 lacks a flag',
      '### Scripts older than kubectl 1.33',
      '* `run_c_tests`: any kubectl again',
      '## Next',
      '* `run_d_tests`: after the section',
    ].join('\n');
    expect([...knownTestCmdDifferences(md, '1.27').keys()]).toEqual(['run_a_tests', 'run_b_tests', 'run_c_tests']);
    expect([...knownTestCmdDifferences(md, '1.33').keys()]).toEqual(['run_a_tests', 'run_c_tests']);
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
