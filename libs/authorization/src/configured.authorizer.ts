/**
 * The authorizer chain of a structured AuthorizationConfiguration (kube's --authorization-config, here
 * KUBE_AUTHORIZATION_CONFIG), as pkg/kubeapiserver/authorizer/reload.go builds it: system:masters first, then
 * every configured authorizer in order, each instrumented (apiserver_authorization_decisions_total), composed as
 * kube's union (the first Allow or Deny ends the chain). The file is re-read when it changes; a file that does not
 * load keeps the chain in use (kube's automatic reload, with its metrics).
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { hostname } from 'node:os';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserInfo } from '@kube/apiserver';
import { alwaysAllow, privilegedGroupAuthorizer, unionAuthorizer, unionRuleResolver } from './authorizers';
import { loadAuthorizationConfiguration, type AuthorizationConfiguration } from './authorization.config';
import { authorizationMetrics, type AuthorizationMetrics } from './authorization.metrics';
import type { RbacAuthorizer, RuleResolver, RuleResolvingAuthorizer, RulesResult } from './rbac.authorizer';
import { WebhookAuthorizer } from './webhook.authorizer';

export interface AuthorizationConfigOptions {
  /** How often the file's stat is polled for a change (default 1 s; kube re-reads every minute and on fsnotify). */
  reloadIntervalMs?: number;
  /** This server's identity, hashed into the reload metrics' apiserver_id_hash. */
  apiServerId?: string;
  log?: (message: string) => void;
  /** For InClusterConfig webhooks (KUBERNETES_SERVICE_HOST/PORT). */
  env?: NodeJS.ProcessEnv;
}

interface Chain {
  authorizer: Authorizer;
  resolver: RuleResolver;
  webhooks: WebhookAuthorizer[];
}

const NO_OPINION: AuthorizationResult = { decision: 'NoOpinion', reason: '' };

/** authorizerfactory.NewAlwaysDenyAuthorizer. */
const alwaysDeny: RuleResolvingAuthorizer = {
  authorize: () => ({ decision: 'Deny', reason: 'Everything is forbidden.' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] }),
};

/**
 * kube's Node authorizer only ever decides for kubelets (users system:node:<name> in system:nodes) from the graph
 * of pods, secrets and volumes bound to their node. kube-ts runs no kubelets and keeps no such graph: Node has no
 * opinion on anything, so a node identity gets what RBAC (or a webhook) gives it and nothing more.
 */
const nodeAuthorizer: RuleResolvingAuthorizer = {
  authorize: () => NO_OPINION,
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] }),
};

/** authorizationmetrics.InstrumentedAuthorizer: terminal decisions counted by type and name. */
function instrumented(type: string, name: string, inner: Authorizer, metrics: AuthorizationMetrics): Authorizer {
  const counted = metrics.decisions(type, name);
  const record = (r: AuthorizationResult): AuthorizationResult => {
    if (r.decision === 'Allow') counted.allowed();
    else if (r.decision === 'Deny') counted.denied();
    return r;
  };
  return {
    authorize: (attrs: AuthorizationAttributes) => {
      const r = inner.authorize(attrs);
      return r instanceof Promise ? r.then(record) : record(r);
    },
  };
}

export class ConfiguredAuthorizer implements RuleResolvingAuthorizer {
  private chain: Chain;
  private lastData: string;
  private watching = false;
  private readonly metrics = authorizationMetrics();
  private readonly requiredTypes: ReadonlySet<string>;
  private readonly apiServerId: string;
  private readonly log: (message: string) => void;

  private constructor(
    private readonly path: string,
    data: string,
    config: AuthorizationConfiguration,
    private readonly rbac: RbacAuthorizer,
    private readonly options: AuthorizationConfigOptions,
  ) {
    this.lastData = data;
    this.log = options.log ?? ((m) => console.warn(m));
    this.apiServerId = options.apiServerId ?? `${hostname()}-${process.pid}`;
    // A reload may not drop the non-webhook authorizers the server started with (kube's requireNonWebhookTypes).
    this.requiredTypes = new Set(config.authorizers.filter((a) => a.type !== 'Webhook').map((a) => a.type));
    this.chain = this.build(config);
  }

  /** Loads the file now; throws kube's error text when it does not load (a server must not start with it). */
  static fromFile(path: string, rbac: RbacAuthorizer, options: AuthorizationConfigOptions = {}): ConfiguredAuthorizer {
    let data: string;
    try {
      data = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`failed to read authorization configuration file ${JSON.stringify(path)}: ${(err as Error).message}`);
    }
    return new ConfiguredAuthorizer(path, data, loadAuthorizationConfiguration(data), rbac, options);
  }

  readonly authorize = (attrs: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult> => this.chain.authorizer.authorize(attrs);

  readonly rulesFor = (user: UserInfo, namespace: string): RulesResult => this.chain.resolver.rulesFor(user, namespace);

  /** The webhooks of the chain in use (tests read their URLs). */
  get webhooks(): readonly WebhookAuthorizer[] {
    return this.chain.webhooks;
  }

  /** newForConfig. */
  private build(config: AuthorizationConfiguration): Chain {
    const authorizers: Authorizer[] = [privilegedGroupAuthorizer()];
    const resolvers: RuleResolver[] = [];
    const webhooks: WebhookAuthorizer[] = [];
    try {
      for (const a of config.authorizers) {
        let inner: RuleResolvingAuthorizer;
        switch (a.type) {
          case 'RBAC':
            inner = this.rbac;
            break;
          case 'Node':
            inner = nodeAuthorizer;
            break;
          case 'AlwaysAllow':
            inner = alwaysAllow;
            break;
          case 'AlwaysDeny':
            inner = alwaysDeny;
            break;
          case 'Webhook': {
            const webhook = new WebhookAuthorizer(a.name, a.webhook!, this.metrics, { env: this.options.env, log: this.log });
            webhooks.push(webhook);
            inner = webhook;
            break;
          }
          case 'ABAC':
            throw new Error('authorizer type ABAC is not allowed if it was not enabled at initial server startup');
          default:
            throw new Error(`unknown authorization mode ${a.type} specified`);
        }
        authorizers.push(instrumented(a.type, a.name, inner, this.metrics));
        resolvers.push(inner);
      }
    } catch (err) {
      for (const w of webhooks) w.close();
      throw err;
    }
    return { authorizer: unionAuthorizer(authorizers), resolver: unionRuleResolver(resolvers), webhooks };
  }

  /** checkFile: true when a new chain was taken. */
  reload(): boolean {
    let data: string;
    try {
      data = readFileSync(this.path, 'utf8');
    } catch (err) {
      this.log(`reloading authorization config: ${(err as Error).message}`);
      this.metrics.configReload(this.apiServerId, 'failure');
      return false;
    }
    if (data === this.lastData) return false;
    this.lastData = data;
    let chain: Chain;
    try {
      chain = this.build(loadAuthorizationConfiguration(data, this.requiredTypes));
    } catch (err) {
      this.log(`reloading authorization config ${this.path}, keeping the one in use: ${(err as Error).message}`);
      this.metrics.configReload(this.apiServerId, 'failure');
      return false;
    }
    const old = this.chain;
    this.chain = chain;
    // Requests already on the old webhooks' connections finish; the connections go after the longest timeout.
    setTimeout(() => old.webhooks.forEach((w) => w.close()), 31_000).unref();
    this.log(`reloaded authorization config ${this.path}`);
    this.metrics.configReload(this.apiServerId, 'success');
    return true;
  }

  private readonly onChange = (): void => void this.reload();

  start(): void {
    if (this.watching) return;
    this.watching = true;
    this.metrics.configReload(this.apiServerId, 'success');
    watchFile(this.path, { interval: this.options.reloadIntervalMs ?? 1000, persistent: false }, this.onChange);
  }

  stop(): void {
    if (this.watching) unwatchFile(this.path, this.onChange);
    this.watching = false;
    for (const w of this.chain.webhooks) w.close();
  }
}
