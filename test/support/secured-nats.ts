import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePki, natsClientPaths, type PkiPaths } from '@kube/pki';
import { CONTROL_PLANE_REGISTRATION_IDENTITIES, natsServerConfig, type RegistrationIdentity, type RegistrationNatsTls } from '@kube/registration';
import { startNats, type NatsProcess } from '@kube/testing';

/** nats-server as every deployment runs it: TLS, a user per service certificate, the registration permissions. */
export interface SecuredNats {
  readonly nats: NatsProcess;
  readonly pki: PkiPaths;
  /** A service's NATS identity: the NATS CA and its client certificate. */
  tls(service: string): RegistrationNatsTls;
  /** KUBE_NATS_* of a service with a NATS identity (core-api, extensions, aggregator, and `extra` ones). */
  env(service: string): Record<string, string>;
}

/**
 * Completes the PKI in `dir` with the NATS CA and client certificates (the control plane's and `extra`), and
 * starts nats-server on it.
 */
export async function startSecuredNats(dir: string, extra: readonly RegistrationIdentity[] = []): Promise<SecuredNats> {
  const identities = [...CONTROL_PLANE_REGISTRATION_IDENTITIES, ...extra];
  const pki = await ensurePki(join(dir, 'pki'), { natsClients: identities.map((identity) => identity.name) });
  const conf = join(dir, 'nats.conf');
  await writeFile(conf, natsServerConfig({ tls: { certFile: pki.natsServerCert, keyFile: pki.natsServerKey, caFile: pki.natsCaCert }, identities }), { mode: 0o600 });
  const nats = await startNats({ extraArgs: ['-c', conf] });
  const tls = (service: string): RegistrationNatsTls => {
    const client = natsClientPaths(pki, service);
    return { caFile: pki.natsCaCert, certFile: client.cert, keyFile: client.key };
  };
  return {
    nats,
    pki,
    tls,
    env: (service) => {
      const { caFile, certFile, keyFile } = tls(service);
      return { KUBE_NATS_URL: nats.url, KUBE_NATS_CA_FILE: caFile as string, KUBE_NATS_CERT_FILE: certFile as string, KUBE_NATS_KEY_FILE: keyFile as string };
    },
  };
}
