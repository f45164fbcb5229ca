import { createPublicKey, verify as verifySignature, constants, type KeyObject } from 'node:crypto';
import { request } from 'node:https';
import { apiserverIdHash, jwksFetchLastKeySetInfo, jwksFetchLastTimestamp, sha256Label } from './authentication.metrics';

/** The JOSE algorithms kube's JWT authenticator accepts (oidc.go allowedSigningAlgs). */
export const ALLOWED_SIGNING_ALGS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'] as const;
export type SigningAlg = (typeof ALLOWED_SIGNING_ALGS)[number];

interface Jwk {
  kid?: string;
  kty?: string;
  use?: string;
  alg?: string;
  crv?: string;
}

export interface PublicJwk {
  readonly kid?: string;
  readonly key: KeyObject;
  /** The curve's algorithm for an EC key (an EC key verifies only its own curve's ES* algorithm). */
  readonly ecAlg?: SigningAlg;
}

const EC_CURVES: Readonly<Record<string, SigningAlg>> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

/** Whether `alg` can be checked with this key: RS and PS need RSA, ES needs the key's own curve. */
function fits(k: PublicJwk, alg: SigningAlg): boolean {
  if (alg.startsWith('ES')) return k.ecAlg === alg;
  return k.key.asymmetricKeyType === 'rsa';
}

/** Verifies a JWS signature over `input` with one key and algorithm (ECDSA as JOSE's r||s, PS* with salt = hash length). */
export function verifyWith(k: PublicJwk, alg: SigningAlg, input: Buffer, signature: Buffer): boolean {
  if (!fits(k, alg)) return false;
  const hash = `sha${alg.slice(2)}`;
  try {
    if (alg.startsWith('PS')) return verifySignature(hash, input, { key: k.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, signature);
    if (alg.startsWith('ES')) return verifySignature(hash, input, { key: k.key, dsaEncoding: 'ieee-p1363' }, signature);
    return verifySignature(hash, input, k.key, signature);
  } catch {
    return false;
  }
}

/** The signing keys of a JWKS document (keys for encryption and unknown types are skipped, as go-jose skips them). */
export function parseJwks(doc: unknown): PublicJwk[] {
  const keys = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('failed to decode keys: no "keys" array');
  const out: PublicJwk[] = [];
  for (const raw of keys as Jwk[]) {
    if (!raw || typeof raw !== 'object' || raw.use === 'enc' || (raw.kty !== 'RSA' && raw.kty !== 'EC')) continue;
    try {
      const key = createPublicKey({ key: raw as never, format: 'jwk' });
      out.push({ kid: typeof raw.kid === 'string' ? raw.kid : undefined, key, ecAlg: raw.kty === 'EC' ? EC_CURVES[raw.crv ?? ''] : undefined });
    } catch {
      // A key node cannot import is one go-jose would reject too; the others still count.
    }
  }
  return out;
}

/** GET over HTTPS with the issuer's CA (system roots without one), JSON back; kube's client has a 30 s timeout. */
export async function getJson(url: string, caPem: string | undefined, timeoutMs = 30_000): Promise<unknown> {
  return (await getJsonWithBody(url, caPem, timeoutMs)).json;
}

/** getJson, with the body as received (the JWKS metric hashes it). */
export function getJsonWithBody(url: string, caPem: string | undefined, timeoutMs = 30_000): Promise<{ json: unknown; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', ca: caPem || undefined, headers: { Accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        // A discovery document or key set is small; a server sending more is cut off.
        if (size > 4 << 20) req.destroy(new Error(`response from ${url} too large`));
        else chunks.push(c);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if ((res.statusCode ?? 0) !== 200) return reject(new Error(`${res.statusCode} ${res.statusMessage ?? ''}: ${body.slice(0, 200)}`));
        try {
          resolve({ json: JSON.parse(body), body });
        } catch (err) {
          reject(new Error(`failed to decode response from ${url}: ${(err as Error).message}`));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`request to ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

export interface RemoteKeySetOptions {
  issuerURL: string;
  /** issuer.discoveryURL: where the discovery document is, when not under the issuer URL. */
  discoveryURL?: string;
  caPem?: string;
  /** Fewest milliseconds between two fetches prompted by tokens (unknown kid, keys not loaded yet). */
  minRefreshIntervalMs?: number;
  /** Re-fetch the key set this often regardless (removed keys stop verifying). */
  periodicRefreshMs?: number;
  log?: (message: string) => void;
}

const apiserverId = apiserverIdHash();
/** The key sets not stopped, per issuer hash: an issuer's metric series live as long as one of them. */
const live = new Map<string, Set<RemoteKeySet>>();

/**
 * The issuer's keys, fetched from its discovery document's jwks_uri (go-oidc's NewProvider + RemoteKeySet): the
 * discovery document's issuer must be the configured URL. Fetched at once and retried every 10 s until it works
 * (kube initializes its verifier asynchronously), again when a token names a key id not in the set (rotation;
 * coalesced and at most once per minRefreshIntervalMs, so forged kids cannot make us flood the issuer), and
 * periodically.
 */
export class RemoteKeySet {
  private keys?: PublicJwk[];
  private jwksURI?: string;
  private inFlight?: Promise<void>;
  private lastAttempt = 0;
  private retry?: NodeJS.Timeout;
  private periodic?: NodeJS.Timeout;
  private stopped = false;

  private readonly issuerHash: string;
  private keySetHash?: string;

  constructor(private readonly options: RemoteKeySetOptions) {
    this.issuerHash = sha256Label(options.issuerURL);
    const sets = live.get(this.issuerHash) ?? new Set<RemoteKeySet>();
    sets.add(this);
    live.set(this.issuerHash, sets);
  }

  start(): void {
    void this.refresh(true);
    const every = this.options.periodicRefreshMs ?? 10 * 60_000;
    this.periodic = setInterval(() => void this.refresh(true), every);
    this.periodic.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.periodic);
    const sets = live.get(this.issuerHash);
    sets?.delete(this);
    if (sets?.size) return;
    live.delete(this.issuerHash);
    // A removed issuer's series go with it (kube cleans them up on reload); a reloaded one's stay with its successor.
    for (const result of ['success', 'failure']) jwksFetchLastTimestamp.remove({ result, jwt_issuer_hash: this.issuerHash, apiserver_id_hash: apiserverId });
    if (this.keySetHash) jwksFetchLastKeySetInfo.remove({ jwt_issuer_hash: this.issuerHash, apiserver_id_hash: apiserverId, hash: this.keySetHash });
  }


  /** Resolves once the first fetch succeeded, or false after `timeoutMs` (kube waits for a reloaded authenticator). */
  async ready(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.keys && !this.stopped && Date.now() < deadline) {
      await Promise.race([this.refresh(true), new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, deadline - Date.now()))))]);
      if (!this.keys) await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, deadline - Date.now()))));
    }
    return this.keys !== undefined;
  }

  get initialized(): boolean {
    return this.keys !== undefined;
  }

  /** The keys as last fetched (undefined before the first fetch succeeded). */
  current(): readonly PublicJwk[] | undefined {
    return this.keys;
  }

  /** Fetches again unless a fetch is under way (then waits for it) or one was tried too recently (`force` skips that). */
  refresh(force = false): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const min = this.options.minRefreshIntervalMs ?? 5000;
    if (!force && Date.now() - this.lastAttempt < min) return Promise.resolve();
    this.lastAttempt = Date.now();
    this.inFlight = this.fetch()
      .catch((err: Error) => {
        this.options.log?.(`oidc authenticator: initializing plugin: ${err.message}`);
        // Until the first success, retry as kube polls (every 10 s).
        if (!this.keys && !this.stopped) {
          clearTimeout(this.retry);
          this.retry = setTimeout(() => void this.refresh(true), 10_000);
          this.retry.unref();
        }
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  private async fetch(): Promise<void> {
    const { issuerURL, discoveryURL, caPem } = this.options;
    if (!this.jwksURI) {
      const wellKnown = discoveryURL ?? `${issuerURL.replace(/\/+$/, '')}/.well-known/openid-configuration`;
      const doc = (await getJson(wellKnown, caPem)) as { issuer?: unknown; jwks_uri?: unknown };
      if (doc?.issuer !== issuerURL) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuerURL)} got ${JSON.stringify(doc?.issuer)}`);
      if (typeof doc.jwks_uri !== 'string' || !doc.jwks_uri) throw new Error('oidc: discovery document has no jwks_uri');
      this.jwksURI = doc.jwks_uri;
    }
    let fetched: { json: unknown; body: string };
    try {
      fetched = await getJsonWithBody(this.jwksURI, caPem);
    } catch (err) {
      jwksFetchLastTimestamp.set({ result: 'failure', jwt_issuer_hash: this.issuerHash, apiserver_id_hash: apiserverId }, Date.now() / 1000);
      throw err;
    }
    this.keys = parseJwks(fetched.json);
    jwksFetchLastTimestamp.set({ result: 'success', jwt_issuer_hash: this.issuerHash, apiserver_id_hash: apiserverId }, Date.now() / 1000);
    const hash = sha256Label(fetched.body);
    if (this.keySetHash && this.keySetHash !== hash) jwksFetchLastKeySetInfo.remove({ jwt_issuer_hash: this.issuerHash, apiserver_id_hash: apiserverId, hash: this.keySetHash });
    this.keySetHash = hash;
    jwksFetchLastKeySetInfo.set({ jwt_issuer_hash: this.issuerHash, apiserver_id_hash: apiserverId, hash }, 1);
  }
}
