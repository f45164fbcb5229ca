import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePki, natsClientPaths, type PkiPaths } from '@kube/pki';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES, natsServerConfig } from '@kube/registration';
import { startNats, type NatsProcess } from '@kube/testing';

/** nats-server as every deployment runs it: TLS, a user per service certificate, the registration permissions. */
export interface SecuredNats {
  readonly nats: NatsProcess;
  readonly pki: PkiPaths;
  /** KUBE_NATS_* of a service with a NATS identity (core-api, extensions, aggregator). */
  env(service: string): Record<string, string>;
}

/** Completes the PKI in `dir` with the NATS CA and client certificates, and starts nats-server on it. */
export async function startSecuredNats(dir: string): Promise<SecuredNats> {
  const pki = await ensurePki(join(dir, 'pki'), { natsClients: CONTROL_PLANE_REGISTRATION_IDENTITIES.map((identity) => identity.name) });
  const conf = join(dir, 'nats.conf');
  const tls = { certFile: pki.natsServerCert, keyFile: pki.natsServerKey, caFile: pki.natsCaCert };
  await writeFile(conf, natsServerConfig({ tls, identities: CONTROL_PLANE_REGISTRATION_IDENTITIES }), { mode: 0o600 });
  const nats = await startNats({ extraArgs: ['-c', conf] });
  return {
    nats,
    pki,
    env: (service) => {
      const client = natsClientPaths(pki, service);
      return { KUBE_NATS_URL: nats.url, KUBE_NATS_CA_FILE: pki.natsCaCert, KUBE_NATS_CERT_FILE: client.cert, KUBE_NATS_KEY_FILE: client.key };
    },
  };
}
