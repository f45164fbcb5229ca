import { randomUUID } from 'node:crypto';
import type { KubeObject, UserInfo } from '@kube/apimachinery';
import { SharedIndexInformer, storageListerWatcher } from '@kube/client';
import type { Storage } from '@kube/storage';
import { peekClaims, signJwt, signingKeyPair, verificationKeys, verifyJwt, type JwtClaims, type SigningKeyPair, type VerificationKey } from './jwt.codec';

/** kube's default --service-account-issuer in most clusters (and kubeadm's). */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** kube's --service-account-* flags. */
export interface ServiceAccountTokenOptions {
  /** --service-account-issuer: the `iss` of issued tokens and the one accepted. */
  issuer: string;
  /** --service-account-key-file: PEM of the keys (public or private) that verify tokens. */
  keyPem: string;
  /** --service-account-signing-key-file: PEM of the private key that signs tokens (the issuing server only). */
  signingKeyPem?: string;
  /** --api-audiences: audiences a token must carry one of; default the issuer. */
  apiAudiences?: string[];
  /** --service-account-jwks-uri: the jwks_uri of the discovery document; default <issuer>/openid/v1/jwks. */
  jwksUri?: string;
}

/** An object a token is bound to (the `kubernetes.io` claim's pod/secret). */
export interface BoundObject {
  kind: 'Pod' | 'Secret';
  name: string;
  uid: string;
}

export interface TokenRequestInput {
  namespace: string;
  serviceAccount: { name: string; uid: string };
  audiences: string[];
  expirationSeconds: number;
  boundObject?: BoundObject;
}

export interface IssuedToken {
  token: string;
  expirationTimestamp: Date;
}

/** Finds a ServiceAccount's uid by namespace and name, without a round trip (an informer's cache). */
export type ServiceAccountLookup = (namespace: string, name: string) => string | undefined;

const SA_PREFIX = 'system:serviceaccount:';
const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

/** serviceaccount.MakeUsername / MakeGroupNames. */
export function serviceAccountUser(namespace: string, name: string, uid: string, extra: Record<string, string[]> = {}): UserInfo {
  return { name: `${SA_PREFIX}${namespace}:${name}`, uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'], extra };
}

/**
 * kube's service-account token issuer and authenticator (pkg/serviceaccount: claims.go, jwt.go): bound,
 * expiring JWTs whose `kubernetes.io` claim names the namespace, the ServiceAccount and the bound object.
 */
export class ServiceAccountTokens {
  readonly keys: VerificationKey[];
  private readonly signer?: SigningKeyPair;
  private readonly audiences: Set<string>;

  constructor(
    readonly options: ServiceAccountTokenOptions,
    private readonly lookup: ServiceAccountLookup,
  ) {
    this.signer = options.signingKeyPem ? signingKeyPair(options.signingKeyPem) : undefined;
    this.keys = verificationKeys(options.keyPem);
    if (this.signer && !this.keys.some((k) => k.kid === this.signer?.kid)) this.keys.push(this.signer);
    this.audiences = new Set(options.apiAudiences?.length ? options.apiAudiences : [options.issuer]);
  }

  get issuer(): string {
    return this.options.issuer;
  }

  /** The audiences a token is checked against (a TokenRequest without audiences gets them all). */
  get apiAudiences(): string[] {
    return [...this.audiences];
  }

  get canIssue(): boolean {
    return this.signer !== undefined;
  }

  /** serviceaccount.Claims + the JWT signer. */
  issue(input: TokenRequestInput, now = new Date()): IssuedToken {
    if (!this.signer) throw new Error('no service account signing key configured');
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + input.expirationSeconds;
    const k8s: Record<string, unknown> = { namespace: input.namespace, serviceaccount: { name: input.serviceAccount.name, uid: input.serviceAccount.uid } };
    if (input.boundObject) k8s[input.boundObject.kind === 'Pod' ? 'pod' : 'secret'] = { name: input.boundObject.name, uid: input.boundObject.uid };
    const claims: JwtClaims = {
      aud: input.audiences,
      exp,
      iat,
      iss: this.options.issuer,
      jti: randomUUID(),
      'kubernetes.io': k8s,
      nbf: iat,
      sub: `${SA_PREFIX}${input.namespace}:${input.serviceAccount.name}`,
    };
    return { token: signJwt(claims, this.signer), expirationTimestamp: new Date(exp * 1000) };
  }

  /**
   * The identity of a valid token for one of `audiences` (default the API audiences), or undefined: not ours
   * (another issuer), malformed, badly signed, expired or not yet valid, for another audience, or its
   * ServiceAccount no longer exists with the uid it was issued for.
   */
  authenticate(token: string, audiences?: readonly string[], now = Date.now()): UserInfo | undefined {
    if (peekClaims(token)?.iss !== this.options.issuer) return undefined;
    const claims = verifyJwt(token, this.keys);
    if (!claims) return undefined;
    const nowSeconds = Math.floor(now / 1000);
    // kube allows 60 s of clock skew on both ends (jwt.DefaultLeeway).
    if (typeof claims.exp !== 'number' || nowSeconds > claims.exp + 60) return undefined;
    if (typeof claims.nbf === 'number' && nowSeconds < claims.nbf - 60) return undefined;
    const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    const wanted = audiences?.length ? new Set(audiences) : this.audiences;
    if (!aud.some((a) => typeof a === 'string' && wanted.has(a))) return undefined;
    const k8s = claims['kubernetes.io'] as { namespace?: unknown; serviceaccount?: { name?: unknown; uid?: unknown }; pod?: { name?: unknown; uid?: unknown } } | undefined;
    const namespace = k8s?.namespace;
    const name = k8s?.serviceaccount?.name;
    const uid = k8s?.serviceaccount?.uid;
    if (typeof namespace !== 'string' || typeof name !== 'string' || typeof uid !== 'string') return undefined;
    if (claims.sub !== `${SA_PREFIX}${namespace}:${name}`) return undefined;
    if (this.lookup(namespace, name) !== uid) return undefined;
    const extra: Record<string, string[]> = {};
    if (typeof k8s?.pod?.name === 'string' && typeof k8s.pod.uid === 'string') {
      extra['authentication.kubernetes.io/pod-name'] = [k8s.pod.name];
      extra['authentication.kubernetes.io/pod-uid'] = [k8s.pod.uid];
    }
    if (typeof claims.jti === 'string') extra[CREDENTIAL_ID] = [`JTI=${claims.jti}`];
    return serviceAccountUser(namespace, name, uid, extra);
  }
}

export interface StorageServiceAccountTokens {
  tokens: ServiceAccountTokens;
  informer: SharedIndexInformer;
}

const byStorage = new WeakMap<Storage, StorageServiceAccountTokens>();

/**
 * ServiceAccountTokens whose ServiceAccount lookups read an informer over this process's storage (list, then
 * watch), so authenticating a token never costs a round trip to etcd. One per storage: the server's
 * authenticator and the resources that issue tokens share it.
 */
export function serviceAccountTokensFromStorage(options: ServiceAccountTokenOptions, storage: Storage): StorageServiceAccountTokens {
  const existing = byStorage.get(storage);
  if (existing) return existing;
  const informer = new SharedIndexInformer('serviceaccounts', storageListerWatcher(storage.resource({ group: '', resource: 'serviceaccounts' }, 'serviceaccounts')));
  const lookup: ServiceAccountLookup = (namespace, name) => (informer.lister.get(`${namespace}/${name}`) as KubeObject | undefined)?.metadata.uid;
  const built = { tokens: new ServiceAccountTokens(options, lookup), informer };
  byStorage.set(storage, built);
  return built;
}
