import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { KubeObject } from '@kube/apimachinery';
import { GenericApiServer } from '@kube/apiserver';
import {
  APISERVER_IDENTITY_ROLES,
  APISERVER_IDENTITY_ROLE_BINDINGS,
  AUTOUPDATE_ANNOTATION,
  BOOTSTRAP_CLUSTER_ROLES,
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  BOOTSTRAP_ROLES,
  BOOTSTRAP_ROLE_BINDINGS,
  CONTROLLER_MANAGER_CLUSTER_ROLES,
  CONTROLLER_MANAGER_CLUSTER_ROLE_BINDINGS,
  RBAC_GROUP,
  covers,
  type ClusterRole,
  type RoleBinding,
} from '@kube/authorization';
import { semanticEqual } from '../resources/validation.helpers';
import { SYSTEM_WRITE, systemContext } from './system.context';

const RETRY_MS = 1000;

/** reconciliation.computeReconciledRole (server start-up flavour): keep everything, add what the default lacks. */
function reconcileRole(existing: ClusterRole, expected: ClusterRole): ClusterRole {
  const out = structuredClone(existing);
  out.metadata.labels = { ...expected.metadata.labels, ...existing.metadata.labels };
  out.metadata.annotations = { ...expected.metadata.annotations, ...existing.metadata.annotations };
  if (expected.aggregationRule) {
    // Aggregated roles get their rules from the aggregation controller: only the selectors are reconciled.
    const selectors = [...(existing.aggregationRule?.clusterRoleSelectors ?? [])];
    for (const s of expected.aggregationRule.clusterRoleSelectors ?? []) if (!selectors.some((t) => semanticEqual(t, s))) selectors.push(s);
    out.aggregationRule = { clusterRoleSelectors: selectors };
    return out;
  }
  const { missing } = covers(existing.rules ?? [], expected.rules ?? []);
  if (missing.length) out.rules = [...(existing.rules ?? []), ...(expected.rules ?? []).filter((r) => !covers(existing.rules ?? [], [r]).covered)];
  return out;
}

/** computeReconciledRoleBinding (start-up flavour): add the default subjects. */
function reconcileBinding(existing: RoleBinding, expected: RoleBinding): RoleBinding {
  const out = structuredClone(existing);
  out.metadata.labels = { ...expected.metadata.labels, ...existing.metadata.labels };
  out.metadata.annotations = { ...expected.metadata.annotations, ...existing.metadata.annotations };
  const subjects = [...(existing.subjects ?? [])];
  for (const s of expected.subjects ?? []) if (!subjects.some((t) => t.kind === s.kind && t.name === s.name && (t.namespace ?? '') === (s.namespace ?? ''))) subjects.push(s);
  out.subjects = subjects;
  return out;
}

/**
 * kube-apiserver's rbac/bootstrap-roles post-start hook: creates the default roles and bindings, and brings
 * existing ones up to date unless they carry `rbac.authorization.kubernetes.io/autoupdate: "false"`. Runs at
 * start-up only (retrying until kube-system exists and etcd answers).
 */
@Injectable()
export class RbacBootstrapController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RbacBootstrap');
  private timer?: NodeJS.Timeout;
  private stopped = false;
  /** Resolves once every default object is reconciled (tests and the aggregation controller wait on it). */
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  private reconciled = false;

  constructor(@Inject(GenericApiServer) private readonly server: GenericApiServer) {
    this.done = new Promise((r) => (this.resolveDone = r));
    // kube-apiserver's post-start hook of the same name keeps /readyz failing until the policy exists.
    server.health.add('poststarthook/rbac/bootstrap-roles', () => {
      if (!this.reconciled) throw new Error('not finished');
    }, ['readyz', 'healthz']);
  }

  onApplicationBootstrap(): void {
    void this.attempt();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async attempt(): Promise<void> {
    try {
      await this.reconcile();
      this.reconciled = true;
      this.resolveDone();
    } catch (err) {
      if (this.stopped) return;
      this.logger.warn(`bootstrap policy not reconciled yet: ${(err as Error).message}`);
      this.timer = setTimeout(() => void this.attempt(), RETRY_MS);
    }
  }

  async reconcile(): Promise<void> {
    for (const role of [...BOOTSTRAP_CLUSTER_ROLES, ...CONTROLLER_MANAGER_CLUSTER_ROLES]) await this.ensure('clusterroles', role, (e) => reconcileRole(e as ClusterRole, role));
    for (const b of [...BOOTSTRAP_CLUSTER_ROLE_BINDINGS, ...CONTROLLER_MANAGER_CLUSTER_ROLE_BINDINGS]) await this.ensure('clusterrolebindings', b, (e) => reconcileBinding(e as RoleBinding, b));
    for (const role of [...BOOTSTRAP_ROLES, ...APISERVER_IDENTITY_ROLES]) await this.ensure('roles', role, (e) => reconcileRole(e as ClusterRole, role));
    for (const b of [...BOOTSTRAP_ROLE_BINDINGS, ...APISERVER_IDENTITY_ROLE_BINDINGS]) await this.ensure('rolebindings', b, (e) => reconcileBinding(e as RoleBinding, b));
  }

  private async ensure(plural: string, expected: KubeObject, reconcile: (existing: KubeObject) => KubeObject): Promise<void> {
    const handler = this.server.handler(RBAC_GROUP, plural);
    const ns = expected.metadata.namespace;
    const name = expected.metadata.name as string;
    const existing = await handler.store.tryGet(ns, name);
    if (!existing) {
      await handler.create(systemContext(), ns, structuredClone(expected) as never, SYSTEM_WRITE);
      return;
    }
    if (existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return;
    if (plural.endsWith('bindings') && !semanticEqual((existing as RoleBinding).roleRef, (expected as RoleBinding).roleRef)) {
      // roleRef is immutable: kube deletes and recreates the binding.
      await handler.delete(systemContext(), ns, name, {}, false);
      await handler.create(systemContext(), ns, structuredClone(expected) as never, SYSTEM_WRITE);
      return;
    }
    const updated = reconcile(existing);
    if (semanticEqual(updated, existing)) return;
    await handler.update(systemContext(), ns, name, updated as never, SYSTEM_WRITE);
  }
}
