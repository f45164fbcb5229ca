import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { UserInfo } from './resource.definition';
import type { ServiceAccountTokenOptions, ServiceAccountTokens } from './serviceaccount/service-account.token';

export interface RequestHeaderOptions {
  /** PEM of the front-proxy CA: only client certs it signed may assert X-Remote-* identities. */
  caPem: string;
  /** Allowed CNs of the proxy certificate; empty = any cert from the CA. */
  allowedNames: string[];
}

export interface AuthenticationOptions {
  clientCAPem?: string;
  requestHeader?: RequestHeaderOptions;
  /** Static bearer tokens (token → user). */
  tokens?: Map<string, UserInfo>;
  /** Service-account JWTs (kube's --service-account-* flags); the server builds their authenticator from its storage. */
  serviceAccounts?: ServiceAccountTokenOptions;
  /** Bearer tokens none of the above know, asked of the control plane (an aggregated server's TokenReviews). */
  tokenReview?: (token: string) => Promise<UserInfo | undefined>;
}

type CertIdentity = { kind: 'user'; user: UserInfo } | { kind: 'proxy' } | { kind: 'none' };

function fingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

/** Splits a PEM bundle into its certificates. */
export function splitPem(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/**
 * x509 client certificates (CN = user, O = groups), front-proxy headers (trusted only over a client cert
 * from the request-header CA with an allowed CN), static bearer tokens and service-account JWTs. Certificate
 * identities are computed once per TLS connection.
 */
export class Authenticator {
  private readonly clientCAs: Set<string>;
  private readonly proxyCAs: Set<string>;
  private readonly bySocket = new WeakMap<TLSSocket, CertIdentity>();

  constructor(
    private readonly options: AuthenticationOptions,
    private readonly serviceAccountTokens?: ServiceAccountTokens,
  ) {
    this.clientCAs = new Set(splitPem(options.clientCAPem ?? '').map(fingerprint));
    this.proxyCAs = new Set(splitPem(options.requestHeader?.caPem ?? '').map(fingerprint));
  }

  /** Every CA whose client certificates the TLS server should request and verify. */
  get trustedCAs(): string[] {
    return [...splitPem(this.options.clientCAPem ?? ''), ...splitPem(this.options.requestHeader?.caPem ?? '')];
  }

  /** The caller; a promise only for a bearer token the control plane has to review (tokenReview). */
  authenticate(req: IncomingMessage): UserInfo | undefined | Promise<UserInfo | undefined> {
    const identity = this.certIdentity(req.socket as TLSSocket);
    if (identity.kind === 'proxy') return this.fromHeaders(req);
    const token = this.bearer(req);
    if (token !== undefined) return this.authenticateToken(token) ?? this.options.tokenReview?.(token);
    return identity.kind === 'user' ? identity.user : undefined;
  }

  /** A bearer token's identity: a static token, else a service-account JWT (kube's union of token authenticators). */
  authenticateToken(token: string, audiences?: readonly string[]): UserInfo | undefined {
    return this.options.tokens?.get(token) ?? this.serviceAccountTokens?.authenticate(token, audiences);
  }

  /** Whether the request came over the front proxy's client certificate, so its headers may be trusted. */
  viaFrontProxy(req: IncomingMessage): boolean {
    return this.certIdentity(req.socket as TLSSocket).kind === 'proxy';
  }

  private bearer(req: IncomingMessage): string | undefined {
    const h = req.headers.authorization;
    if (!h || !/^bearer /i.test(h)) return undefined;
    return h.slice(7).trim();
  }

  private certIdentity(socket: TLSSocket): CertIdentity {
    let id = this.bySocket.get(socket);
    if (!id) {
      id = this.computeCertIdentity(socket);
      this.bySocket.set(socket, id);
    }
    return id;
  }

  private computeCertIdentity(socket: TLSSocket): CertIdentity {
    if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return { kind: 'none' };
    const cert = socket.getPeerCertificate(true);
    if (!cert || !cert.subject) return { kind: 'none' };
    const root = rootOf(cert);
    const cn = firstOf(cert.subject.CN);
    if (this.proxyCAs.has(root.fingerprint256)) {
      const allowed = this.options.requestHeader?.allowedNames ?? [];
      return allowed.length === 0 || allowed.includes(cn) ? { kind: 'proxy' } : { kind: 'none' };
    }
    if (this.clientCAs.has(root.fingerprint256) && cn) {
      const groups = asList(cert.subject.O as string | string[] | undefined);
      return { kind: 'user', user: { name: cn, groups: [...groups, 'system:authenticated'] } };
    }
    return { kind: 'none' };
  }

  private fromHeaders(req: IncomingMessage): UserInfo | undefined {
    const name = firstOf(req.headers['x-remote-user']);
    if (!name) return undefined;
    const groups = asList(req.headers['x-remote-group']).flatMap((g) => g.split(',').map((s) => s.trim()).filter(Boolean));
    const extra: Record<string, string[]> = {};
    for (const [h, v] of Object.entries(req.headers)) {
      if (!h.startsWith('x-remote-extra-')) continue;
      extra[decodeURIComponent(h.slice('x-remote-extra-'.length))] = asList(v);
    }
    const uid = firstOf(req.headers['x-remote-uid']);
    return { name, uid: uid || undefined, groups, extra };
  }
}

function firstOf(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

function rootOf(cert: PeerCertificate): PeerCertificate {
  let c = cert as PeerCertificate & { issuerCertificate?: PeerCertificate };
  for (let i = 0; i < 10 && c.issuerCertificate && c.issuerCertificate !== c && c.issuerCertificate.fingerprint256 !== c.fingerprint256; i++) {
    c = c.issuerCertificate as PeerCertificate & { issuerCertificate?: PeerCertificate };
  }
  return c;
}

const PUBLIC_PATHS = /^\/(healthz|livez|readyz|version)(\/.*)?$/;

/** Paths anonymous callers may read, as kube's system:public-info-viewer allows (probes, load balancers). */
export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.test(path);
}
