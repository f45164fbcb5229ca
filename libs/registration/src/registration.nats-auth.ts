/**
 * Who may say what on the registration subjects, and the nats-server configuration that enforces it
 * (docs/registration.md, "Threat model"). Every connection authenticates with a TLS client certificate issued
 * by the NATS CA; nats-server maps its subject `CN=<name>` to a user (`verify_and_map`) whose permissions allow
 * an announcer to publish only on its own announce/withdraw subjects and a registry only to ask for resyncs.
 * A client without a certificate of that CA, or with one that maps to no user, cannot connect.
 */
import { RegistrationSubjects, serviceSubject } from './registration.subjects';

/** announcer: serves group/versions (core-api, extensions, an SDK server); registry: the aggregator. */
export type RegistrationRole = 'announcer' | 'registry';

export interface RegistrationIdentity {
  /** The service name, a DNS-1123 label: the `service` of its announcements and the CN of its client certificate. */
  readonly name: string;
  readonly roles: readonly RegistrationRole[];
}

/** The control plane's own NATS identities (npm start, docker-compose and the Helm chart use these). */
export const CONTROL_PLANE_REGISTRATION_IDENTITIES: readonly RegistrationIdentity[] = [
  { name: 'core-api', roles: ['announcer'] },
  { name: 'extensions', roles: ['announcer'] },
  { name: 'aggregator', roles: ['registry'] },
];

export interface RegistrationPermissions {
  readonly publish: readonly string[];
  readonly subscribe: readonly string[];
}

const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The nats-server user a client certificate with subject `CN=<name>` maps to (RFC 2253 form, as nats-server prints it). */
export function natsUserOf(name: string): string {
  if (!DNS_1123_LABEL.test(name)) throw new Error(`NATS identity ${JSON.stringify(name)} is not a DNS-1123 label`);
  return `CN=${name}`;
}

/** What `identity` may publish and subscribe to; nothing else (nats-server denies what is not allowed). */
export function registrationPermissions(identity: RegistrationIdentity): RegistrationPermissions {
  // An empty allow list would mean "no restriction" to nats-server: an identity without a role is a mistake.
  if (identity.roles.length === 0) throw new Error(`NATS identity ${identity.name} has no registration role`);
  const publish: string[] = [];
  const subscribe: string[] = [];
  if (identity.roles.includes('announcer')) {
    publish.push(serviceSubject(RegistrationSubjects.announce, identity.name), serviceSubject(RegistrationSubjects.withdraw, identity.name));
    subscribe.push(RegistrationSubjects.resync);
  }
  if (identity.roles.includes('registry')) {
    publish.push(RegistrationSubjects.resync);
    subscribe.push(RegistrationSubjects.announce, RegistrationSubjects.withdraw);
  }
  return { publish: [...new Set(publish)], subscribe: [...new Set(subscribe)] };
}

export interface NatsServerConfigOptions {
  /** host:port of the client listener (default: nats-server's flags decide). */
  readonly listen?: string;
  /**
   * host:port of the HTTP monitoring listener (/healthz). nats-server asks its clients for no credentials, over
   * HTTPS neither: only a loopback no other component shares (a container's or pod's own).
   */
  readonly monitor?: string;
  /** Turns JetStream on with its store here. */
  readonly jetStreamStoreDir?: string;
  /** PEM files: nats-server's serving certificate and key, and the CA client certificates must chain to. */
  readonly tls: { readonly certFile: string; readonly keyFile: string; readonly caFile: string };
  readonly identities: readonly RegistrationIdentity[];
}

/** A nats-server configuration file (JSON, which nats-server's parser reads) enforcing the registration permissions. */
export function natsServerConfig(opts: NatsServerConfigOptions): string {
  const config = {
    ...(opts.listen ? { listen: opts.listen } : {}),
    ...(opts.monitor ? { http: opts.monitor } : {}),
    ...(opts.jetStreamStoreDir ? { jetstream: { store_dir: opts.jetStreamStoreDir } } : {}),
    tls: { cert_file: opts.tls.certFile, key_file: opts.tls.keyFile, ca_file: opts.tls.caFile, verify_and_map: true },
    authorization: {
      users: opts.identities.map((identity) => {
        const { publish, subscribe } = registrationPermissions(identity);
        return { user: natsUserOf(identity.name), permissions: { publish: { allow: publish }, subscribe: { allow: subscribe } } };
      }),
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
