import type { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { Logger } from '@nestjs/common';
import { CertificatePool, splitPem } from './certificate-pool.verifier';
import { clientCertificateExpiration } from './apiserver.metrics';
import { headerLines } from './header.lines';
import type { UserInfo } from './resource.definition';
import type { ServiceAccountTokenOptions, ServiceAccountTokens } from './serviceaccount/service-account.token';
import type { StructuredAuthentication } from './authentication/structured.authentication';

export { splitPem };

export interface RequestHeaderOptions {
  /** PEM of the front-proxy CA: only client certs it signed may assert X-Remote-* identities. */
  caPem: string;
  /**
   * Allowed CNs of the proxy certificate. Empty = any certificate the CA signed (kube's meaning), which is
   * warned about at start: it must be asked for explicitly (see requestHeaderFromEnv).
   */
  allowedNames: string[];
}

export interface AuthenticationOptions {
  clientCAPem?: string;
  requestHeader?: RequestHeaderOptions;
  /** Static bearer tokens (token → user). */
  tokens?: Map<string, UserInfo>;
  /** Service-account JWTs (kube's --service-account-* flags); the server builds their authenticator from its storage. */
  serviceAccounts?: ServiceAccountTokenOptions;
  /** KUBE_AUTHENTICATION_CONFIG (kube's --authentication-config): JWT authenticators and the anonymous section; one per process. */
  structured?: StructuredAuthentication;
  /** Bearer tokens none of the above know, asked of the control plane (an aggregated server's TokenReviews). */
  tokenReview?: (token: string) => Promise<UserInfo | undefined>;
}

type MaybeUser = UserInfo | undefined | Promise<UserInfo | undefined>;

/** A client certificate's user carries the certificate's notAfter (epoch ms) for the expiration metric. */
type CertIdentity = { kind: 'user'; user: UserInfo; notAfter: number } | { kind: 'proxy' } | { kind: 'none' };

const NONE: CertIdentity = { kind: 'none' };
const PROXY: CertIdentity = { kind: 'proxy' };

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** Request-header configurations already warned about (a process builds several Authenticators from one). */
const warnedAnyName = new WeakSet<RequestHeaderOptions>();

/**
 * The rest of the chain the peer sent after its leaf, in its order: for a peer certificate Node links each to the
 * next one sent (`issuerCertificate`), whatever their names. Only candidates: CertificatePool uses one only if
 * its signature verifies. (Node hands the peer chain to the first getPeerX509Certificate() of a connection only,
 * hence the one call per connection.)
 */
function peerIntermediates(leaf: X509Certificate): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (let c = leaf.issuerCertificate; c && out.length < 10; c = c.issuerCertificate) out.push(c);
  return out;
}

/**
 * x509 client certificates (CN = user, O = groups), front-proxy headers (trusted only over a client cert
 * from the request-header CA with an allowed CN), static bearer tokens and service-account JWTs. Certificate
 * identities are computed once per TLS connection.
 *
 * TLS verified the peer's certificate against the union of both CA pools (it must ask for either); which pool
 * vouches for it is decided here, each pool verifying the leaf on its own, as kube's request-header and x509
 * authenticators each run their own x509 verifier: never from the peer-supplied chain's names.
 */
export class Authenticator {
  private readonly clientCAs: CertificatePool;
  private readonly proxyCAs: CertificatePool;
  private readonly allowedNames: readonly string[];
  private readonly bySocket = new WeakMap<TLSSocket, CertIdentity>();

  constructor(
    private readonly options: AuthenticationOptions,
    private readonly serviceAccountTokens?: ServiceAccountTokens,
  ) {
    this.clientCAs = new CertificatePool(options.clientCAPem ?? '');
    this.proxyCAs = new CertificatePool(options.requestHeader?.caPem ?? '');
    this.allowedNames = options.requestHeader?.allowedNames ?? [];
    const rh = options.requestHeader;
    if (rh && rh.allowedNames.length === 0 && !warnedAnyName.has(rh)) {
      warnedAnyName.add(rh);
      new Logger('Authentication').warn('the request-header allowed names are empty: any client certificate the request-header CA signed may assert X-Remote-* identities');
    }
  }

  /** Every CA whose client certificates the TLS server should request and verify. */
  get trustedCAs(): string[] {
    return [...splitPem(this.options.clientCAPem ?? ''), ...splitPem(this.options.requestHeader?.caPem ?? '')];
  }

  /** The caller; a promise only for a bearer token the control plane has to review (tokenReview). */
  authenticate(req: IncomingMessage): UserInfo | undefined | Promise<UserInfo | undefined> {
    const identity = this.certIdentity(req.socket as TLSSocket);
    if (identity.kind === 'proxy') return this.fromHeaders(req);
    // kube's union tries x509 before tokens: a client presenting both is the certificate's user.
    if (identity.kind === 'user') {
      // kube observes it on every request the certificate authenticates.
      clientCertificateExpiration.observe((identity.notAfter - Date.now()) / 1000);
      return identity.user;
    }
    const token = this.bearer(req);
    if (token === undefined) return undefined;
    const known = this.authenticateToken(token);
    if (known) return known;
    // kube's token union order: static tokens, service accounts, then the JWT authenticators, then a webhook.
    const jwt = this.options.structured?.authenticate(token);
    const review = this.options.tokenReview;
    if (!review) return jwt;
    if (jwt === undefined) return review(token);
    return jwt instanceof Promise ? jwt.then((u) => u ?? review(token)) : jwt;
  }

  /**
   * A TokenReview's answer: a static or service-account token for `audiences`, else a JWT authenticator's user
   * (kube wraps those audience-agnostic: only when the audiences asked include one of the server's).
   */
  reviewToken(token: string, audiences?: readonly string[]): MaybeUser {
    const known = this.authenticateToken(token, audiences);
    if (known || !this.options.structured) return known;
    const apiAudiences = this.serviceAccountTokens?.apiAudiences ?? [];
    if (audiences?.length && !audiences.some((a) => apiAudiences.includes(a))) return undefined;
    return this.options.structured.authenticate(token);
  }

  /**
   * Whether a request nobody authenticated is system:anonymous on this path: the authentication configuration's
   * anonymous section when it has one (kube: it replaces --anonymous-auth; a bearer token that failed is 401 there,
   * as kube's bearer-token authenticator fails the request), else the public paths only.
   */
  anonymousAllowed(path: string, req?: IncomingMessage): boolean {
    const configured = this.options.structured?.anonymousAllowed(path);
    if (configured === undefined) return isPublicPath(path);
    return configured && (!req || this.bearer(req) === undefined);
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

  /**
   * kube's union order: the request-header authenticator (leaf verified against the request-header CA alone, then
   * its CN against the allowed names), else the x509 one (leaf verified against the client CA alone).
   */
  private computeCertIdentity(socket: TLSSocket): CertIdentity {
    if (typeof socket.getPeerX509Certificate !== 'function' || !socket.authorized) return NONE;
    // The leaf as the peer sent it (its DER from the TLS session), not a certificate found by name.
    const leaf = socket.getPeerX509Certificate();
    if (!leaf) return NONE;
    let chain: X509Certificate[] | undefined;
    const intermediates = (): X509Certificate[] => (chain ??= peerIntermediates(leaf));
    const subject = socket.getPeerCertificate(false).subject;
    const cn = firstOf(subject?.CN);
    if (this.proxyCAs.verifies(leaf, intermediates) && (this.allowedNames.length === 0 || this.allowedNames.includes(cn))) return PROXY;
    if (cn && this.clientCAs.verifies(leaf, intermediates)) {
      const groups = asList(subject.O as string | string[] | undefined);
      return { kind: 'user', user: { name: cn, groups: [...groups, 'system:authenticated'] }, notAfter: Date.parse(leaf.validTo) };
    }
    return NONE;
  }

  private fromHeaders(req: IncomingMessage): UserInfo | undefined {
    const name = firstOf(req.headers['x-remote-user']);
    if (!name) return undefined;
    // One value per header line, as kube's requestheader authenticator reads them (the proxy sends one line per group).
    const lines = headerLines(req, (h) => h.startsWith('x-remote-'));
    const groups = (lines['x-remote-group'] ?? []).filter((g) => g.trim() !== '');
    const extra: Record<string, string[]> = {};
    for (const h in lines) {
      if (h.startsWith('x-remote-extra-')) extra[unescapeExtraKey(h.slice('x-remote-extra-'.length))] = lines[h];
    }
    const uid = firstOf(req.headers['x-remote-uid']);
    return { name, uid: uid || undefined, groups, extra };
  }
}

/** kube's unescapeExtraKey: a key that does not unescape is taken as it is. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

function firstOf(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

const PUBLIC_PATHS = /^\/(healthz|livez|readyz|version)(\/.*)?$/;

/** Paths anonymous callers may read, as kube's system:public-info-viewer allows (probes, load balancers). */
export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.test(path);
}
