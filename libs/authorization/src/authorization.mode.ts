import type { Storage } from '@kube/storage';
import { alwaysAllow, privilegedGroupAuthorizer, unionAuthorizer, unionRuleResolver } from './authorizers';
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

/** What a server authorizes with: the system:masters bypass, then the configured mode; its rule resolver; escalation checks. */
export interface AuthorizationSet {
  mode: AuthorizationMode;
  authorizer: RuleResolvingAuthorizer;
  rbac: RbacAuthorizer;
  informer: RbacInformer;
  escalation: EscalationCheck;
  /** Resolves once the RBAC objects are in memory. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Builds the authorizer chain of a server from the shared etcd, as kube-apiserver's BuildAuthorizer does:
 * privileged groups (system:masters) first, then RBAC or AlwaysAllow. The RBAC objects are always followed (the
 * review APIs and escalation checks need them whatever the mode).
 */
export function buildAuthorization(storage: Storage, mode: AuthorizationMode): AuthorizationSet {
  const informer = new RbacInformer(storage);
  const rbac = new RbacAuthorizer(informer.index);
  const modeAuthorizer = mode === 'RBAC' ? rbac : alwaysAllow;
  const chain = unionAuthorizer([privilegedGroupAuthorizer(), modeAuthorizer]);
  const authorizer: RuleResolvingAuthorizer = { authorize: chain.authorize, rulesFor: unionRuleResolver([modeAuthorizer]).rulesFor };
  return {
    mode,
    authorizer,
    rbac,
    informer,
    escalation: new EscalationCheck(authorizer, rbac, informer.index),
    start: () => informer.start(),
    stop: () => informer.stop(),
  };
}
