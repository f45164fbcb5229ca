import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTracingConfiguration } from '@kube/apiserver';
import { pkiPaths } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { ensureTracingConfig, launcherEnvironments } from '../../scripts/start';

/** npm start and KUBE_TRACING=true: every service exports to `npm run traces` through one TracingConfiguration beside the PKI. */
describe('npm start with KUBE_TRACING', () => {
  const saved = { tracing: process.env.KUBE_TRACING, file: process.env.KUBE_TRACING_CONFIG_FILE };
  afterEach(() => {
    for (const [name, value] of [['KUBE_TRACING', saved.tracing], ['KUBE_TRACING_CONFIG_FILE', saved.file]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const pki = pkiPaths(join(tempDir('start-tracing'), 'pki'));

  it('writes a TracingConfiguration sampling every request to 127.0.0.1:4317 and hands it to every service, the controller-manager included', async () => {
    process.env.KUBE_TRACING = 'true';
    delete process.env.KUBE_TRACING_CONFIG_FILE;
    mkdirSync(pki.dir, { recursive: true });
    const path = await ensureTracingConfig(pki);
    expect(path).toBe(join(pki.dir, 'tracing-config.yaml'));
    expect(parseTracingConfiguration(readFileSync(path as string, 'utf8'))).toEqual({ endpoint: '127.0.0.1:4317', samplingRatePerMillion: 1_000_000 });
    expect(statSync(path as string).mode & 0o777).toBe(0o600);
    const envs = launcherEnvironments(pki);
    expect(Object.keys(envs)).toEqual(expect.arrayContaining(['aggregator', 'core-api', 'extensions', 'controller-manager']));
    for (const [name, env] of Object.entries(envs)) expect(env.KUBE_TRACING_CONFIG_FILE, name).toBe(path);
  });

  it('leaves a KUBE_TRACING_CONFIG_FILE of the caller\'s alone (the children inherit it) and writes nothing', async () => {
    process.env.KUBE_TRACING = 'true';
    process.env.KUBE_TRACING_CONFIG_FILE = '/etc/kube/tracing.yaml';
    expect(await ensureTracingConfig(pki)).toBeUndefined();
    for (const [name, env] of Object.entries(launcherEnvironments(pki))) expect(env.KUBE_TRACING_CONFIG_FILE, name).toBeUndefined();
  });

  it('sets nothing without KUBE_TRACING=true', async () => {
    delete process.env.KUBE_TRACING_CONFIG_FILE;
    for (const value of [undefined, 'false', '1']) {
      if (value === undefined) delete process.env.KUBE_TRACING;
      else process.env.KUBE_TRACING = value;
      expect(await ensureTracingConfig(pki)).toBeUndefined();
      for (const [name, env] of Object.entries(launcherEnvironments(pki))) expect(env.KUBE_TRACING_CONFIG_FILE, name).toBeUndefined();
    }
  });
});
