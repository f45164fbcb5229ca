import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pkiPaths } from '@kube/pki';
import { tempDir } from '@kube/testing';
import { launcherEnvironments } from '../../scripts/start';

/** npm start and KUBE_AUTHENTICATION_CONFIG: the caller's file reaches the front door and core-api, nobody else. */
describe('npm start with KUBE_AUTHENTICATION_CONFIG', () => {
  const saved = process.env.KUBE_AUTHENTICATION_CONFIG;
  afterEach(() => {
    if (saved === undefined) delete process.env.KUBE_AUTHENTICATION_CONFIG;
    else process.env.KUBE_AUTHENTICATION_CONFIG = saved;
  });
  const pki = pkiPaths(join(tempDir('start-authn'), 'pki'));

  it('hands the file (as an absolute path) to the aggregator and core-api and blanks it for the others', () => {
    process.env.KUBE_AUTHENTICATION_CONFIG = 'authentication-config.yaml';
    const envs = launcherEnvironments(pki);
    const given = Object.entries(envs).filter(([, env]) => env.KUBE_AUTHENTICATION_CONFIG).map(([name, env]) => [name, env.KUBE_AUTHENTICATION_CONFIG]);
    expect(given.sort()).toEqual([
      ['aggregator', resolve('authentication-config.yaml')],
      ['core-api', resolve('authentication-config.yaml')],
    ]);
    // The others inherit the launcher's environment, so they get it empty (no authentication configuration).
    for (const [name, env] of Object.entries(envs)) if (name !== 'aggregator' && name !== 'core-api' && name !== 'controller-manager') expect(env.KUBE_AUTHENTICATION_CONFIG, name).toBe('');
  });

  it('sets nothing when the caller did not', () => {
    delete process.env.KUBE_AUTHENTICATION_CONFIG;
    for (const [name, env] of Object.entries(launcherEnvironments(pki))) expect(env.KUBE_AUTHENTICATION_CONFIG, name).toBeUndefined();
  });
});
