/**
 * The chart's HTTP/2 settings reach the front door as the environment it reads (KUBE_HTTP2,
 * KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION), and compose passes them on the same way.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { http2ServingFromEnv } from '@kube/apiserver';
import { locateHelm } from '@kube/testing';
import { CHART, ROOT } from './deploy.helpers';

const located = locateHelm(join(ROOT, '.local', 'tools'));

describe('HTTP/2 at the front door, as deployed', () => {
  it('compose passes KUBE_HTTP2 and KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION to the aggregator, defaulting to kube', () => {
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('KUBE_HTTP2: ${KUBE_HTTP2:-true}');
    expect(compose).toContain('KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION: ${KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION:-0}');
  });

  if (!located.path) {
    it.skip(`helm template skipped: ${located.reason}`, () => undefined);
    return;
  }
  const helm = located.path;
  type Env = Record<string, string>;
  const aggregatorEnv = (args: string[]): Env => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', ...args], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    const docs = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as { kind?: string; metadata?: { name: string }; spec?: { template: { spec: { containers: Array<{ env?: Array<{ name: string; value: string }> }> } } } } | null);
    const deployment = docs.find((d) => d?.kind === 'Deployment' && d.metadata?.name === 'kts-kube-ts-aggregator');
    return Object.fromEntries((deployment?.spec?.template.spec.containers[0].env ?? []).map((e) => [e.name, e.value]));
  };

  it("renders kube's defaults (h2 on, 0 = kube's 100 streams), which the front door parses", () => {
    const env = aggregatorEnv([]);
    expect(env).toMatchObject({ KUBE_HTTP2: 'true', KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION: '0' });
    expect(http2ServingFromEnv(env)).toEqual({ enabled: true, maxStreamsPerConnection: 0 });
  });

  it('renders aggregator.http2 values: a stream limit, and HTTP/1.1 only', () => {
    const env = aggregatorEnv(['--set', 'aggregator.http2.enabled=false', '--set', 'aggregator.http2.maxStreamsPerConnection=1000']);
    expect(env).toMatchObject({ KUBE_HTTP2: 'false', KUBE_HTTP2_MAX_STREAMS_PER_CONNECTION: '1000' });
    expect(http2ServingFromEnv(env)).toEqual({ enabled: false, maxStreamsPerConnection: 1000 });
  });

  it('refuses a negative stream limit (values.schema.json)', () => {
    const rendered = spawnSync(helm, ['template', 'kts', CHART, '-n', 'kube-ts', '--set', 'aggregator.http2.maxStreamsPerConnection=-1'], { encoding: 'utf8' });
    expect(rendered.status).not.toBe(0);
    expect(rendered.stderr).toMatch(/maxStreamsPerConnection/);
  });
});
