import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePki, etcdClientPaths, type PkiPaths } from '@kube/pki';
import type { EtcdTls } from '@kube/storage';
import { startEtcd, type EtcdProcess } from '@kube/testing';
import { type AggregatedEtcdClient, applyEtcdAccess, CONTROL_PLANE_ETCD_CLIENTS, ETCD_ROOT_CLIENT, etcdUser } from '../../scripts/etcd-access';

/** etcd as every deployment runs it: TLS only, client certificates of the etcd CA, etcd's RBAC enabled. */
export interface SecuredEtcd {
  readonly etcd: EtcdProcess;
  readonly pki: PkiPaths;
  /** The etcd client TLS (PEM) of a component ('root' for etcd's root): the etcd CA and its own certificate. */
  tls(component: string): EtcdTls;
  /** KUBE_ETCD_* of a component: the https endpoint and its own client certificate files. */
  env(component: string): Record<string, string>;
}

/**
 * Completes the PKI in `dir` with the etcd CA, etcd's serving certificate and a client certificate per
 * component (the control plane's, each `aggregated` one's, and root), starts etcd with TLS and client-certificate
 * authentication on it, and applies the users and roles of scripts/etcd-access.ts as npm start does.
 */
export async function startSecuredEtcd(dir: string, aggregated: readonly AggregatedEtcdClient[] = []): Promise<SecuredEtcd> {
  const components = [...CONTROL_PLANE_ETCD_CLIENTS, ...aggregated.map((a) => a.component)];
  const etcdClients = Object.fromEntries([[ETCD_ROOT_CLIENT, ETCD_ROOT_CLIENT], ...components.map((c) => [c, etcdUser(c)])]);
  const pki = await ensurePki(join(dir, 'pki'), { etcdClients });
  const tls = (component: string): EtcdTls => {
    const files = etcdClientPaths(pki, component);
    return { caPem: readFileSync(pki.etcdCaCert, 'utf8'), certPem: readFileSync(files.cert, 'utf8'), keyPem: readFileSync(files.key, 'utf8') };
  };
  const root = tls(ETCD_ROOT_CLIENT);
  const etcd = await startEtcd({
    tls: { certFile: pki.etcdServerCert, keyFile: pki.etcdServerKey, trustedCaFile: pki.etcdCaCert, probe: { certPem: root.certPem as string, keyPem: root.keyPem as string } },
  });
  await applyEtcdAccess({ endpoints: [etcd.endpoint], tls: root, aggregated });
  return {
    etcd,
    pki,
    tls,
    env: (component) => {
      const files = etcdClientPaths(pki, component);
      return { KUBE_ETCD_ENDPOINTS: etcd.endpoint, KUBE_ETCD_CAFILE: pki.etcdCaCert, KUBE_ETCD_CERTFILE: files.cert, KUBE_ETCD_KEYFILE: files.key };
    },
  };
}
