import type { UserInfo } from '../resource.definition';
import type { CelMapper, JWTAuthenticator } from './authentication.config';
import { claimsActivation, stringList, userActivation } from './claims.cel';
import { ALLOWED_SIGNING_ALGS, RemoteKeySet, verifyWith, type PublicJwk, type SigningAlg } from './oidc.keyset';

const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

/** go-oidc's allowance for clock skew on `nbf` (exp gets none). */
const NBF_LEEWAY_SECONDS = 300;

/** A token this authenticator refused, with kube's reason (logged; the client sees 401 Unauthorized). */
export class TokenRejected extends Error {}

function decodeSegment(part: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** oidc.go's untrustedIssuer: the unverified `iss` of a compact JWT (accounts.google.com coalesced), or undefined. */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const iss = decodeSegment(parts[1])?.iss;
  if (typeof iss !== 'string') return undefined;
  return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
}

function formatTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/**
 * One `jwt[]` entry of an AuthenticationConfiguration (kube's plugin/pkg/authenticator/token/oidc): verifies
 * tokens whose `iss` is its issuer against the issuer's keys (discovery + JWKS over HTTPS with its CA), then
 * exp/nbf, the audiences (MatchAny), claim mappings, required claims, claim and user validation rules.
 */
export class JwtIssuerAuthenticator {
  readonly keySet: RemoteKeySet;
  private readonly audiences: Set<string>;
  private readonly requiredClaims: [string, string][];

  constructor(
    readonly config: JWTAuthenticator,
    private readonly cel: CelMapper,
    log?: (message: string) => void,
    keySet?: RemoteKeySet,
  ) {
    this.keySet = keySet ?? new RemoteKeySet({ issuerURL: config.issuer.url, discoveryURL: config.issuer.discoveryURL, caPem: config.issuer.certificateAuthority, log });
    this.audiences = new Set(config.issuer.audiences);
    this.requiredClaims = (config.claimValidationRules ?? []).filter((r) => r.claim).map((r) => [r.claim as string, r.requiredValue ?? '']);
  }

  get issuerURL(): string {
    return this.config.issuer.url;
  }

  /** Whether the token claims to be from this issuer (kube's hasCorrectIssuer; only then is it ours to verify). */
  matches(token: string): boolean {
    return untrustedIssuer(token) === this.config.issuer.url;
  }

  /** The mapped user, or throws TokenRejected with kube's reason. */
  async authenticate(token: string, nowMs = Date.now()): Promise<UserInfo> {
    return (await this.authenticateWithExpiry(token, nowMs)).user;
  }

  /** The mapped user and the token's `exp` (epoch seconds), or throws TokenRejected with kube's reason. */
  async authenticateWithExpiry(token: string, nowMs = Date.now()): Promise<{ user: UserInfo; exp: number }> {
    const claims = await this.verify(token, nowMs);
    const activation = this.cel.username || this.cel.groups || this.cel.uid || this.cel.extra.length || this.cel.claimValidationRules.length ? claimsActivation(claims) : undefined;
    const user: UserInfo = { name: this.username(claims, activation), groups: [] };
    user.groups = this.groups(claims, activation);
    const uid = this.uid(claims, activation);
    if (uid) user.uid = uid;
    const extra = this.extra(activation);
    // kube records the token's jti as the credential id (what audit events name the credential by).
    if (typeof claims.jti === 'string') extra[CREDENTIAL_ID] = [`JTI=${claims.jti}`];
    if (Object.keys(extra).length) user.extra = extra;
    for (const [claim, value] of this.requiredClaims) {
      if (!(claim in claims)) throw new TokenRejected(`oidc: required claim ${claim} not present in ID token`);
      const got = claims[claim];
      if (typeof got !== 'string') throw new TokenRejected(`oidc: parse claim ${claim}: json: cannot unmarshal ${jsonType(got)} into Go value of type string`);
      if (got !== value) throw new TokenRejected(`oidc: required claim ${claim} value does not match. Got = ${got}, want = ${value}`);
    }
    if (activation) this.checkRules(this.cel.claimValidationRules, activation, 'oidc: error evaluating claim validation expression');
    if (this.cel.userValidationRules.length) this.checkRules(this.cel.userValidationRules, userActivation(user), 'oidc: error evaluating user info validation rule');
    return { user, exp: claims.exp as number };
  }

  /** Signature (a key of the issuer's set; a kid not in it refetches the set once), issuer, exp, nbf, audience. */
  private async verify(token: string, nowMs: number): Promise<Record<string, unknown>> {
    const parts = token.split('.');
    const header = parts.length === 3 ? decodeSegment(parts[0]) : undefined;
    const claims = parts.length === 3 ? decodeSegment(parts[1]) : undefined;
    if (!header || !claims) throw new TokenRejected('oidc: verify token: oidc: malformed jwt');
    const alg = header.alg;
    if (typeof alg !== 'string' || !(ALLOWED_SIGNING_ALGS as readonly string[]).includes(alg)) {
      throw new TokenRejected(`oidc: verify token: oidc: id token signed with unsupported algorithm, expected ${JSON.stringify(ALLOWED_SIGNING_ALGS)} got ${JSON.stringify(alg)}`);
    }
    const kid = typeof header.kid === 'string' ? header.kid : undefined;
    const input = Buffer.from(`${parts[0]}.${parts[1]}`);
    const signature = Buffer.from(parts[2], 'base64url');
    if (!this.keySet.initialized) await this.keySet.refresh();
    let keys = this.keySet.current();
    if (!keys) throw new TokenRejected('oidc: authenticator not initialized');
    const candidates = (set: readonly PublicJwk[]): PublicJwk[] => set.filter((k) => kid === undefined || k.kid === kid);
    let verified = candidates(keys).some((k) => verifyWith(k, alg as SigningAlg, input, signature));
    if (!verified && kid !== undefined && candidates(keys).length === 0) {
      // A key id we do not know: the issuer may have rotated its keys (go-oidc's RemoteKeySet refetches).
      await this.keySet.refresh();
      keys = this.keySet.current() ?? [];
      verified = candidates(keys).some((k) => verifyWith(k, alg as SigningAlg, input, signature));
    }
    if (!verified) throw new TokenRejected('oidc: verify token: failed to verify signature: failed to verify id token signature');
    if (claims.iss !== this.config.issuer.url) throw new TokenRejected(`oidc: verify token: oidc: id token issued by a different provider, expected ${JSON.stringify(this.config.issuer.url)} got ${JSON.stringify(claims.iss)}`);
    const now = nowMs / 1000;
    const exp = typeof claims.exp === 'number' ? claims.exp : 0;
    if (exp < now) throw new TokenRejected(`oidc: verify token: oidc: token is expired (Token Expiry: ${formatTime(exp)})`);
    if (typeof claims.nbf === 'number' && now + NBF_LEEWAY_SECONDS < claims.nbf) {
      throw new TokenRejected(`oidc: verify token: oidc: current time ${formatTime(now)} before the nbf (not before) time: ${formatTime(claims.nbf)}`);
    }
    const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((a): a is string => typeof a === 'string') : [];
    if (!aud.some((a) => this.audiences.has(a))) {
      throw new TokenRejected(`oidc: verify token: oidc: expected audience in ${JSON.stringify([...this.audiences].sort())} got ${JSON.stringify(aud)}`);
    }
    return claims;
  }

  private username(claims: Record<string, unknown>, activation: Record<string, unknown> | undefined): string {
    if (this.cel.username && activation) {
      const v = evaluate(this.cel.username.evaluate, activation, 'oidc: error evaluating username claim expression');
      if (typeof v !== 'string') throw new TokenRejected('oidc: error evaluating username claim expression: username claim expression must return a string');
      if (!v) throw new TokenRejected('oidc: empty username via CEL expression is not allowed');
      return v;
    }
    const claim = this.config.claimMappings.username.claim ?? '';
    const value = claims[claim];
    if (value === undefined) throw new TokenRejected(`oidc: parse username claims ${JSON.stringify(claim)}: claim not present`);
    if (typeof value !== 'string') throw new TokenRejected(`oidc: parse username claims ${JSON.stringify(claim)}: json: cannot unmarshal ${jsonType(value)} into Go value of type string`);
    // https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims: an unverified email is not a name.
    if (claim === 'email' && 'email_verified' in claims) {
      if (typeof claims.email_verified !== 'boolean') throw new TokenRejected(`oidc: parse 'email_verified' claim: json: cannot unmarshal ${jsonType(claims.email_verified)} into Go value of type bool`);
      if (!claims.email_verified) throw new TokenRejected('oidc: email not verified');
    }
    const prefix = this.config.claimMappings.username.prefix;
    return prefix ? prefix + value : value;
  }

  private groups(claims: Record<string, unknown>, activation: Record<string, unknown> | undefined): string[] {
    const mapping = this.config.claimMappings.groups;
    if (mapping?.claim && mapping.claim in claims) {
      const v = claims[mapping.claim];
      const groups = typeof v === 'string' ? [v] : Array.isArray(v) && v.every((g) => typeof g === 'string') ? (v as string[]) : undefined;
      if (!groups) throw new TokenRejected(`oidc: parse groups claim ${JSON.stringify(mapping.claim)}: json: cannot unmarshal ${jsonType(v)} into Go value of type string`);
      return mapping.prefix ? groups.map((g) => mapping.prefix + g) : [...groups];
    }
    if (!this.cel.groups || !activation) return [];
    const v = evaluate(this.cel.groups.evaluate, activation, 'oidc: error evaluating group claim expression');
    try {
      return stringList(v);
    } catch (err) {
      throw new TokenRejected(`oidc: error evaluating group claim expression: ${(err as Error).message}`);
    }
  }

  private uid(claims: Record<string, unknown>, activation: Record<string, unknown> | undefined): string {
    const claim = this.config.claimMappings.uid?.claim;
    if (claim) {
      const v = claims[claim];
      if (typeof v !== 'string') throw new TokenRejected(`oidc: parse uid claim ${JSON.stringify(claim)}: ${v === undefined ? 'claim not present' : `json: cannot unmarshal ${jsonType(v)} into Go value of type string`}`);
      return v;
    }
    if (!this.cel.uid || !activation) return '';
    const v = evaluate(this.cel.uid.evaluate, activation, 'oidc: error evaluating uid claim expression');
    if (typeof v !== 'string') throw new TokenRejected('oidc: error evaluating uid claim expression: uid claim expression must return a string');
    return v;
  }

  private extra(activation: Record<string, unknown> | undefined): Record<string, string[]> {
    const extra: Record<string, string[]> = {};
    if (!activation) return extra;
    for (const { key, expression } of this.cel.extra) {
      const v = evaluate(expression.evaluate, activation, 'oidc: error evaluating extra claim expression');
      let values: string[];
      try {
        values = stringList(v);
      } catch (err) {
        throw new TokenRejected(`oidc: error evaluating extra claim expression: ${expression.source}: ${(err as Error).message}`);
      }
      if (values.length) extra[key] = values;
    }
    return extra;
  }

  /** kube's checkValidationRulesEvaluation: the first rule that is not true rejects the token. */
  private checkRules(rules: CelMapper['claimValidationRules'], activation: Record<string, unknown>, context: string): void {
    for (const rule of rules) {
      const v = evaluate(rule.expression.evaluate, activation, context);
      if (typeof v !== 'boolean') throw new TokenRejected(`${context}: validation expression must return a boolean`);
      if (!v) throw new TokenRejected(`${context}: validation expression '${rule.expression.source}' failed: ${rule.message}`);
    }
  }
}

function evaluate(fn: (a: Record<string, unknown>) => unknown, activation: Record<string, unknown>, context: string): unknown {
  try {
    return fn(activation);
  } catch (err) {
    throw new TokenRejected(`${context}: ${(err as Error).message}`);
  }
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}
