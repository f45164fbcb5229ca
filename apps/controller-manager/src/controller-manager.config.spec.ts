import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controllerManagerOptionsFromEnv } from './controller-manager.config';

describe('controllerManagerOptionsFromEnv', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-config-'));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const base = {
    KUBE_MASTER_URL: 'https://127.0.0.1:6443',
    KUBE_CLIENT_CA_FILE: file('ca.crt', 'CA'),
    KUBE_CLIENT_CERT_FILE: file('client.crt', 'CERT'),
    KUBE_CLIENT_KEY_FILE: file('client.key', 'KEY'),
    KUBE_TLS_CERT_FILE: file('tls.crt', 'TLS'),
    KUBE_TLS_PRIVATE_KEY_FILE: file('tls.key', 'TLSKEY'),
  };

  it('reads the cluster signing CA (kube\'s --cluster-signing-cert-file/--cluster-signing-key-file) when both are set', () => {
    const options = controllerManagerOptionsFromEnv({ ...base, KUBE_CLUSTER_SIGNING_CERT_FILE: file('signing.crt', 'SIGNCERT'), KUBE_CLUSTER_SIGNING_KEY_FILE: file('signing.key', 'SIGNKEY') });
    expect(options.clusterSigning).toEqual({ certPem: 'SIGNCERT', keyPem: 'SIGNKEY' });
  });

  it('runs without a signing CA when neither is set, and refuses one without the other', () => {
    expect(controllerManagerOptionsFromEnv(base).clusterSigning).toBeUndefined();
    expect(() => controllerManagerOptionsFromEnv({ ...base, KUBE_CLUSTER_SIGNING_CERT_FILE: file('only.crt', 'X') })).toThrow('KUBE_CLUSTER_SIGNING_CERT_FILE and KUBE_CLUSTER_SIGNING_KEY_FILE go together');
  });

  it('takes the controllers to run from KUBE_CONTROLLERS', () => {
    expect(controllerManagerOptionsFromEnv({ ...base, KUBE_CONTROLLERS: 'resourcequota-controller, certificatesigningrequest-signing-controller' }).controllers).toEqual(['resourcequota-controller', 'certificatesigningrequest-signing-controller']);
  });
});
