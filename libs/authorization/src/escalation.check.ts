import { Errors } from '@kube/apimachinery';
import type { AuthorizationAttributes, Authorizer, UserInfo } from '@kube/apiserver';
import { escalationMessage } from './policy.comparator';
import type { RbacAuthorizer } from './rbac.authorizer';
import type { RbacIndex } from './rbac.index';
import { RBAC_GROUP, SYSTEM_PRIVILEGED_GROUP, type PolicyRule, type RoleRef } from './rbac.types';

/** ClusterRoles with an aggregationRule can gather anything: setting one takes * on everything. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

function attributes(user: UserInfo, verb: string, resource: string, namespace: string, name: string, apiGroup = RBAC_GROUP): AuthorizationAttributes {
  return { user, verb, resourceRequest: true, path: '', apiGroup, apiVersion: '*', resource, subresource: '', namespace, name };
}

/**
 * kube's RBAC escalation prevention (pkg/registry/rbac/escalation_check.go and the policy-based role and binding
 * storage): writing a role with rules you do not hold needs `escalate` on it; binding a role needs `bind` on it
 * or holding its rules. system:masters may do anything. Violations are 403 Forbidden with kube's messages.
 */
export class EscalationCheck {
  constructor(
    private readonly authorizer: Authorizer,
    private readonly rbac: RbacAuthorizer,
    private readonly index: RbacIndex,
  ) {}

  private static privileged(user: UserInfo): boolean {
    return user.groups.includes(SYSTEM_PRIVILEGED_GROUP);
  }

  private async allowed(attrs: AuthorizationAttributes): Promise<boolean> {
    return (await this.authorizer.authorize(attrs)).decision === 'Allow';
  }

  private confirmNoEscalation(user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
    const owner = this.rbac.policyRulesFor(user, namespace);
    return escalationMessage(user, owner.rules, rules, owner.errors);
  }

  /**
   * A Role or ClusterRole create/update. `requestName` is the name in the URL ('' on create), as kube's
   * RoleEscalationAuthorized checks; `aggregationChanged` when a ClusterRole sets or changes its aggregationRule.
   */
  async checkRole(user: UserInfo, resource: 'roles' | 'clusterroles', namespace: string, requestName: string, objectName: string, rules: readonly PolicyRule[], aggregationChanged: boolean): Promise<void> {
    if (EscalationCheck.privileged(user)) return;
    if (await this.allowed(attributes(user, 'escalate', resource, namespace, requestName))) return;
    const gr = { group: RBAC_GROUP, resource };
    const missing = this.confirmNoEscalation(user, namespace, rules);
    if (missing) throw Errors.forbidden(gr, objectName, missing);
    if (aggregationChanged && this.confirmNoEscalation(user, namespace, FULL_AUTHORITY)) {
      throw Errors.forbidden(gr, objectName, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }

  /** A RoleBinding or ClusterRoleBinding create/update (namespace '' for cluster bindings). */
  async checkBinding(user: UserInfo, resource: 'rolebindings' | 'clusterrolebindings', namespace: string, objectName: string, roleRef: RoleRef): Promise<void> {
    if (EscalationCheck.privileged(user)) return;
    const refResource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : roleRef.kind === 'Role' ? 'roles' : '';
    if (refResource && (await this.allowed(attributes(user, 'bind', refResource, namespace, roleRef.name, roleRef.apiGroup)))) return;
    const gr = { group: RBAC_GROUP, resource };
    const ref = this.index.roleReferenceRules(roleRef, namespace);
    if (ref.error) {
      // The registry's wording (kube resolves the reference through storage, not a lister): plural resource.
      const message = refResource ? Errors.notFound({ group: RBAC_GROUP, resource: refResource }, roleRef.name).message : ref.error;
      throw Errors.forbidden(gr, objectName, message);
    }
    const missing = this.confirmNoEscalation(user, namespace, ref.rules);
    if (missing) throw Errors.forbidden(gr, objectName, missing);
  }
}
