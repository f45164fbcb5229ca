import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import type { UserInfo } from '../resource.definition';
import { loadAuthenticationConfiguration, type AnonymousAuthConfig, type AuthenticationConfiguration, type CelMapper } from './authentication.config';
import {
  apiserverIdHash,
  authenticationConfigLastConfigInfo,
  authenticationConfigReloadLastTimestamp,
  authenticationConfigReloadsTotal,
  jwtAuthenticatorLatency,
  sha256Label,
} from './authentication.metrics';
import { JwtIssuerAuthenticator, TokenRejected, untrustedIssuer } from './jwt.authenticator';

export interface StructuredAuthenticationOptions {
  /** Issuers a JWT authenticator may not claim (the service-account issuer). */
  disallowedIssuers?: readonly string[];
  /** How often the file's stat is polled for changes (default 2 s; kube also re-reads it every minute). */
  reloadIntervalMs?: number;
  /** How long a reload waits for its new JWT authenticators to fetch their issuer's keys (kube: a minute). */
  readyTimeoutMs?: number;
  /** How long an authenticated token is remembered (kube's token success cache: 10 s). */
  successCacheTtlMs?: number;
  log?: (message: string) => void;
}

interface CachedUser {
  user: UserInfo;
  expiresAt: number;
}

const AUTHENTICATED = 'system:authenticated';
const MAX_CACHED_TOKENS = 10_000;

/**
 * kube's --authentication-config (KUBE_AUTHENTICATION_CONFIG): the JWT authenticators of an AuthenticationConfiguration
 * and its anonymous section, reloaded when the file changes (a file that does not load keeps the last good
 * configuration, logged and counted as kube's metrics count it). Authenticated tokens are cached for 10 s as kube's
 * token cache does, so a repeated token costs a map lookup, not a signature check; failures are not cached (kube's
 * failure TTL is 0). Concurrent requests with the same new token share one verification.
 */
export class StructuredAuthentication {
  private authenticators: JwtIssuerAuthenticator[] = [];
  private byIssuer = new Map<string, JwtIssuerAuthenticator>();
  private readonly cache = new Map<string, CachedUser>();
  private readonly inFlight = new Map<string, Promise<UserInfo | undefined>>();
  private readonly idHash = apiserverIdHash();
  private readonly ttlMs: number;
  private readonly log: (message: string) => void;
  /** The anonymous section of the file read at start (kube applies it at start only). */
  readonly anonymous?: AnonymousAuthConfig;
  private content: string;
  private timer?: NodeJS.Timeout;

  private constructor(
    content: string,
    loaded: { config: AuthenticationConfiguration; mappers: CelMapper[] },
    private readonly path: string | undefined,
    private readonly options: StructuredAuthenticationOptions,
  ) {
    this.content = content;
    this.ttlMs = options.successCacheTtlMs ?? 10_000;
    this.log = options.log ?? (() => undefined);
    this.anonymous = loaded.config.anonymous;
    // At start the authenticators are used at once and initialize in the background, as kube's do.
    this.apply(this.build(loaded).next);
    authenticationConfigLastConfigInfo.reset();
    authenticationConfigLastConfigInfo.set({ apiserver_id_hash: this.idHash, hash: sha256Label(content) }, 1);
  }

  /** Reads and validates the file now: a server must not start with a configuration that does not load. */
  static fromFile(path: string, options: StructuredAuthenticationOptions = {}): StructuredAuthentication {
    const content = readFileSync(path, 'utf8');
    const auth = new StructuredAuthentication(content, loadAuthenticationConfiguration(content, options.disallowedIssuers), path, options);
    auth.watch(options.reloadIntervalMs ?? 2000);
    return auth;
  }

  /** A configuration given as text (tests, or one built in code); never reloaded. */
  static fromText(text: string, options: StructuredAuthenticationOptions = {}): StructuredAuthentication {
    return new StructuredAuthentication(text, loadAuthenticationConfiguration(text, options.disallowedIssuers), undefined, options);
  }

  get issuers(): string[] {
    return this.authenticators.map((a) => a.issuerURL);
  }

  /**
   * Whether an unauthenticated request to `path` is system:anonymous (kube's anonymous section: enabled, and the
   * path among the conditions when there are any); undefined when the file has no anonymous section.
   */
  anonymousAllowed(path: string): boolean | undefined {
    const a = this.anonymous;
    if (!a) return undefined;
    if (!a.enabled) return false;
    return !a.conditions?.length || a.conditions.some((c) => c.path === path);
  }

  /**
   * The user a bearer token maps to: undefined at once when no authenticator's issuer is the token's `iss` (not a
   * JWT for us), the cached user at once when it was authenticated less than 10 s ago, else a promise (verification,
   * possibly fetching the issuer's keys) that is undefined when the token is refused (the reason is logged).
   */
  authenticate(token: string): UserInfo | undefined | Promise<UserInfo | undefined> {
    const hit = this.cache.get(token);
    if (hit) {
      if (hit.expiresAt > Date.now()) return hit.user;
      this.cache.delete(token);
    }
    const running = this.inFlight.get(token);
    if (running) return running;
    // The unverified iss picks the authenticator (kube's hasCorrectIssuer), decoded once whatever their number.
    const iss = untrustedIssuer(token);
    const authenticator = iss === undefined ? undefined : this.byIssuer.get(iss);
    if (!authenticator) return undefined;
    const p = this.verify(authenticator, token).finally(() => {
      if (this.inFlight.get(token) === p) this.inFlight.delete(token);
    });
    this.inFlight.set(token, p);
    return p;
  }

  /** Bumped by every reload that is taken: a verification started before it is not cached after it. */
  private generation = 0;

  private async verify(authenticator: JwtIssuerAuthenticator, token: string): Promise<UserInfo | undefined> {
    const generation = this.generation;
    const started = process.hrtime.bigint();
    const issuerHash = sha256Label(authenticator.issuerURL);
    const observe = (result: 'success' | 'failure'): void => {
      jwtAuthenticatorLatency.observe({ result, jwt_issuer_hash: issuerHash }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    try {
      const { user: mapped, exp } = await authenticator.authenticateWithExpiry(token);
      observe('success');
      // kube's union adds system:authenticated to every authenticated user.
      const user: UserInfo = mapped.groups.includes(AUTHENTICATED) ? mapped : { ...mapped, groups: [...mapped.groups, AUTHENTICATED] };
      if (generation === this.generation) this.remember(token, user, exp * 1000);
      return user;
    } catch (err) {
      observe('failure');
      this.log(`Unable to authenticate the request: ${err instanceof TokenRejected ? err.message : `oidc: ${(err as Error).message}`}`);
      return undefined;
    }
  }

  /** Cached for the TTL, never past the token's own expiry. */
  private remember(token: string, user: UserInfo, expiresAtMs: number): void {
    if (this.cache.size >= MAX_CACHED_TOKENS) {
      const now = Date.now();
      for (const [k, v] of this.cache) if (v.expiresAt <= now) this.cache.delete(k);
      // Still full: drop the oldest entries (a Map iterates in insertion order).
      for (const k of this.cache.keys()) {
        if (this.cache.size < MAX_CACHED_TOKENS) break;
        this.cache.delete(k);
      }
    }
    this.cache.set(token, { user, expiresAt: Math.min(Date.now() + this.ttlMs, expiresAtMs) });
  }

  /**
   * The authenticators of a loaded configuration: one whose entry did not change is kept as it is (its keys too),
   * the others are new and start fetching their issuer's keys.
   */
  private build(loaded: { config: AuthenticationConfiguration; mappers: CelMapper[] }): { next: JwtIssuerAuthenticator[]; fresh: JwtIssuerAuthenticator[] } {
    const previous = new Map(this.authenticators.map((a) => [JSON.stringify(a.config), a]));
    const fresh: JwtIssuerAuthenticator[] = [];
    const next = loaded.config.jwt.map((j, i) => {
      const same = previous.get(JSON.stringify(j));
      if (same) return new JwtIssuerAuthenticator(j, loaded.mappers[i], this.log, same.keySet);
      const a = new JwtIssuerAuthenticator(j, loaded.mappers[i], this.log);
      a.keySet.start();
      fresh.push(a);
      return a;
    });
    return { next, fresh };
  }

  /** Puts `next` in place and stops the key sets no authenticator uses any more. */
  private apply(next: JwtIssuerAuthenticator[]): void {
    const kept = new Set(next.map((a) => a.keySet));
    for (const old of this.authenticators) if (!kept.has(old.keySet)) old.keySet.stop();
    this.authenticators = next;
    this.byIssuer = new Map(next.map((a) => [a.issuerURL, a]));
  }

  private reloading?: Promise<boolean>;

  /**
   * Checks the file once (kube's authentication config controller); true when a new configuration was taken. A file
   * that does not decode or validate, or changes the anonymous section, fails until it changes again; one whose new
   * JWT authenticators cannot reach their issuer within `readyTimeoutMs` (kube: a minute) fails and is retried.
   */
  reload(): Promise<boolean> {
    if (this.reloading) {
      // A change seen while a reload waits for its issuers is read again right after it, never dropped.
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      let taken = false;
      do {
        this.reloadAgain = false;
        taken = (await this.reloadOnce()) || taken;
      } while (this.reloadAgain);
      return taken;
    })().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private reloadAgain = false;

  private async reloadOnce(): Promise<boolean> {
    if (!this.path) return false;
    let content: string;
    try {
      content = readFileSync(this.path, 'utf8');
    } catch (err) {
      return this.failed(`could not be read: ${(err as Error).message}`);
    }
    if (content === this.content) return false;
    let loaded: { config: AuthenticationConfiguration; mappers: CelMapper[] };
    try {
      loaded = loadAuthenticationConfiguration(content, this.options.disallowedIssuers);
      if (JSON.stringify(loaded.config.anonymous) !== JSON.stringify(this.anonymous)) throw new Error('anonymous: Forbidden: changed from initial configuration file');
    } catch (err) {
      // Never valid, whatever the issuers do: not retried until the file changes.
      this.content = content;
      return this.failed(`is invalid: ${(err as Error).message}`);
    }
    const { next, fresh } = this.build(loaded);
    const ready = await Promise.all(fresh.map((a) => a.keySet.ready(this.options.readyTimeoutMs ?? 60_000)));
    if (ready.includes(false)) {
      for (const a of fresh) a.keySet.stop();
      return this.failed(`could not be applied: oidc: authenticator for issuer ${JSON.stringify(fresh[ready.indexOf(false)].issuerURL)} is not initialized (retried)`);
    }
    this.content = content;
    this.apply(next);
    // Nothing verified under the old configuration is answered from now on (see verify's generation check).
    this.generation++;
    this.cache.clear();
    this.inFlight.clear();
    this.record('success');
    authenticationConfigLastConfigInfo.reset();
    authenticationConfigLastConfigInfo.set({ apiserver_id_hash: this.idHash, hash: sha256Label(content) }, 1);
    this.log(`authentication configuration ${this.path} reloaded (${this.authenticators.length} JWT authenticators)`);
    return true;
  }

  private failed(why: string): false {
    this.record('failure');
    this.log(`authentication configuration ${this.path} ${why}; keeping the current one`);
    return false;
  }

  private record(status: 'success' | 'failure'): void {
    authenticationConfigReloadsTotal.inc({ status, apiserver_id_hash: this.idHash });
    authenticationConfigReloadLastTimestamp.set({ status, apiserver_id_hash: this.idHash }, Date.now() / 1000);
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.path) unwatchFile(this.path, this.onChange);
    for (const a of this.authenticators) a.keySet.stop();
  }

  private readonly onChange = (): void => void this.reload();

  /** A stat poll (survives the file being replaced, as editors and Secret volumes do), and a minute re-read besides. */
  private watch(intervalMs: number): void {
    if (!this.path) return;
    watchFile(this.path, { interval: intervalMs, persistent: false }, this.onChange);
    this.timer = setInterval(this.onChange, 60_000);
    this.timer.unref();
  }
}
