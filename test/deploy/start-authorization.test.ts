import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pkiPaths } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { launcherEnvironments } from '../../scripts/start';

/** npm start and KUBE_AUTHORIZATION_CONFIG: the caller's file reaches the servers that authorize with the chain. */
describe('npm start with KUBE_AUTHORIZATION_CONFIG', () => {
  const saved = process.env.KUBE_AUTHORIZATION_CONFIG;
  afterEach(() => {
    if (saved === undefined) delete process.env.KUBE_AUTHORIZATION_CONFIG;
    else process.env.KUBE_AUTHORIZATION_CONFIG = saved;
  });
  const pki = pkiPaths(join(tempDir('start-authz'), 'pki'));

  it('hands the file (as an absolute path) to the aggregator, core-api and extensions, and blanks it for the aggregated servers', () => {
    process.env.KUBE_AUTHORIZATION_CONFIG = 'authorization-config.yaml';
    const envs = launcherEnvironments(pki);
    const given = Object.entries(envs).filter(([, env]) => env.KUBE_AUTHORIZATION_CONFIG).map(([name, env]) => [name, env.KUBE_AUTHORIZATION_CONFIG]);
    expect(given.sort()).toEqual([
      ['aggregator', resolve('authorization-config.yaml')],
      ['core-api', resolve('authorization-config.yaml')],
      ['extensions', resolve('authorization-config.yaml')],
    ]);
    // They delegate to core-api's review API; the launcher's environment they inherit carries it empty.
    for (const name of ['sample-apiserver', 'counts-apiserver']) expect(envs[name].KUBE_AUTHORIZATION_CONFIG, name).toBe('');
  });

  it('sets nothing when the caller did not', () => {
    delete process.env.KUBE_AUTHORIZATION_CONFIG;
    for (const [name, env] of Object.entries(launcherEnvironments(pki))) expect(env.KUBE_AUTHORIZATION_CONFIG, name).toBeUndefined();
  });
});
