import type { Storage } from '@kube/storage';
import { alwaysAllow, privilegedGroupAuthorizer, unionAuthorizer, unionRuleResolver } from './authorizers';
import { ConfiguredAuthorizer, type AuthorizationConfigOptions } from './configured.authorizer';
import { EscalationCheck } from './escalation.check';
import { RbacAuthorizer, type RuleResolvingAuthorizer } from './rbac.authorizer';
import { RbacInformer } from './rbac.informer';

export type AuthorizationMode = 'RBAC' | 'AlwaysAllow';

/** KUBE_AUTHORIZATION_MODE (RBAC by default), as kube-apiserver's --authorization-mode. */
export function authorizationModeFromEnv(env: NodeJS.ProcessEnv = process.env): AuthorizationMode {
  const mode = env.KUBE_AUTHORIZATION_MODE || 'RBAC';
  if (mode !== 'RBAC' && mode !== 'AlwaysAllow') throw new Error(`KUBE_AUTHORIZATION_MODE: unsupported value "${mode}": supported values: "AlwaysAllow", "RBAC"`);
  return mode;
}

/**
 * KUBE_AUTHORIZATION_CONFIG (kube's --authorization-config): the AuthorizationConfiguration file, or undefined.
 * Like kube, it excludes the mode flag: both set is a start-up error.
 */
export function authorizationConfigFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.KUBE_AUTHORIZATION_CONFIG || undefined;
  if (path && env.KUBE_AUTHORIZATION_MODE) throw new Error('KUBE_AUTHORIZATION_CONFIG can not be specified when KUBE_AUTHORIZATION_MODE is defined (kube: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined)');
  return path;
}

/** What a server authorizes with: the system:masters bypass, then the configured mode; its rule resolver; escalation checks. */
export interface AuthorizationSet {
  mode: AuthorizationMode;
  authorizer: RuleResolvingAuthorizer;
  rbac: RbacAuthorizer;
  informer: RbacInformer;
  escalation: EscalationCheck;
  /** The structured configuration's chain, when KUBE_AUTHORIZATION_CONFIG names one. */
  configured?: ConfiguredAuthorizer;
  /** Resolves once the RBAC objects are in memory. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Builds the authorizer chain of a server from the shared etcd, as kube-apiserver's BuildAuthorizer does:
 * privileged groups (system:masters) first, then RBAC or AlwaysAllow, or the chain of a structured
 * AuthorizationConfiguration file (`configFile`, reloaded when it changes). The RBAC objects are always followed
 * (the review APIs and escalation checks need them whatever the mode).
 */
export function buildAuthorization(storage: Storage, mode: AuthorizationMode, configFile?: string, configOptions?: AuthorizationConfigOptions): AuthorizationSet {
  const informer = new RbacInformer(storage);
  const rbac = new RbacAuthorizer(informer.index);
  let authorizer: RuleResolvingAuthorizer;
  let configured: ConfiguredAuthorizer | undefined;
  if (configFile) {
    configured = ConfiguredAuthorizer.fromFile(configFile, rbac, configOptions);
    authorizer = configured;
  } else {
    const modeAuthorizer = mode === 'RBAC' ? rbac : alwaysAllow;
    const chain = unionAuthorizer([privilegedGroupAuthorizer(), modeAuthorizer]);
    authorizer = { authorize: chain.authorize, rulesFor: unionRuleResolver([modeAuthorizer]).rulesFor };
  }
  return {
    mode: configured ? 'RBAC' : mode,
    authorizer,
    rbac,
    informer,
    escalation: new EscalationCheck(authorizer, rbac, informer.index),
    configured,
    start: () => {
      configured?.start();
      return informer.start();
    },
    stop: () => {
      configured?.stop();
      informer.stop();
    },
  };
}
