/**
 * rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding: kube's defaulting
 * (pkg/apis/rbac/v1/defaults.go), validation (pkg/apis/rbac/validation) and printers (pkg/printers/internalversion).
 * Stored at kube's keys (/registry/roles/…, without the group). Escalation checks run as admission (rbac.admission.ts).
 */
import { FieldError, isDNS1123Subdomain, isValidPathSegmentName, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy, TableColumn } from '@kube/apiserver';
import { RBAC_GROUP, RBAC_STORAGE_PREFIXES, type ClusterRole, type PolicyRule, type RoleBinding, type Subject } from '@kube/authorization';
import { ageColumn, createdAtColumn } from './table.helpers';
import { isRecord, listOf, semanticEqual } from './validation.helpers';

function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = isRecord(rule) ? rule : ({} as PolicyRule);
  if (listOf(r.verbs).length === 0) errs.push(FieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (listOf(r.nonResourceURLs).length > 0) {
    if (namespaced) errs.push(FieldError.invalid(`${path}.nonResourceURLs`, r.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (listOf(r.apiGroups).length > 0 || listOf(r.resources).length > 0 || listOf(r.resourceNames).length > 0) {
      errs.push(FieldError.invalid(`${path}.nonResourceURLs`, r.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (listOf(r.apiGroups).length === 0) errs.push(FieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (listOf(r.resources).length === 0) errs.push(FieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  if (listOf(r.resourceNames).length > 0 && listOf(r.resources).length > 1) errs.push(FieldError.required(`${path}.resourceNames`, 'resource names cannot apply to multiple resources'));
  return errs;
}

function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  return listOf((obj as ClusterRole).rules).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));
}

function validateClusterRole(obj: KubeObject): FieldError[] {
  const errs = validateRules(obj, false);
  const agg = (obj as ClusterRole).aggregationRule;
  if (agg && listOf(agg.clusterRoleSelectors).length === 0) {
    errs.push(FieldError.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  return errs;
}

function validateSubject(subject: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const s = isRecord(subject) ? subject : ({} as Subject);
  const name = s.name ?? '';
  if (!name) errs.push(FieldError.required(`${path}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name) for (const msg of isDNS1123Subdomain(name)) errs.push(FieldError.invalid(`${path}.name`, name, msg));
      if (s.apiGroup) errs.push(FieldError.notSupported(`${path}.apiGroup`, s.apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(FieldError.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (!name) errs.push(FieldError.invalid(`${path}.name`, name, `${s.kind === 'User' ? 'user' : 'group'} name cannot be empty`));
      if (s.apiGroup !== RBAC_GROUP) errs.push(FieldError.notSupported(`${path}.apiGroup`, s.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      errs.push(FieldError.notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(obj: KubeObject, namespaced: boolean): FieldError[] {
  const b = obj as RoleBinding;
  const ref = isRecord(b.roleRef) ? b.roleRef : { apiGroup: '', kind: '', name: '' };
  const errs: FieldError[] = [];
  if (ref.apiGroup !== RBAC_GROUP) errs.push(FieldError.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(FieldError.notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(FieldError.required('roleRef.name'));
  else for (const msg of isValidPathSegmentName(ref.name)) errs.push(FieldError.invalid('roleRef.name', ref.name, msg));
  listOf(b.subjects).forEach((s, i) => errs.push(...validateSubject(s, namespaced, `subjects[${i}]`)));
  return errs;
}

function validateBindingUpdate(obj: KubeObject, old: KubeObject, namespaced: boolean): FieldError[] {
  const errs = validateBinding(obj, namespaced);
  const ref = (obj as RoleBinding).roleRef;
  if (!semanticEqual(ref, (old as RoleBinding).roleRef)) errs.push(FieldError.invalid('roleRef', ref, 'cannot change roleRef'));
  return errs;
}

/** SetDefaults_RoleBinding / _ClusterRoleBinding / _Subject: the RBAC group on roleRef and on User and Group subjects. */
function defaultBinding(obj: KubeObject): void {
  const b = obj as RoleBinding;
  if (isRecord(b.roleRef) && !b.roleRef.apiGroup) b.roleRef.apiGroup = RBAC_GROUP;
  for (const s of listOf(b.subjects)) {
    if (isRecord(s) && !s.apiGroup && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = RBAC_GROUP;
  }
}

const roleStrategy = (namespaced: boolean): ResourceStrategy => ({
  validate: (obj) => (namespaced ? validateRules(obj, true) : validateClusterRole(obj)),
  validateUpdate: (obj) => (namespaced ? validateRules(obj, true) : validateClusterRole(obj)),
});

const bindingStrategy = (namespaced: boolean): ResourceStrategy => ({
  default: defaultBinding,
  validate: (obj) => validateBinding(obj, namespaced),
  validateUpdate: (obj, old) => validateBindingUpdate(obj, old, namespaced),
});

/** rbac.SubjectsStrings, joined as the wide columns print them. */
function subjectsOf(obj: KubeObject, kind: string): string {
  return listOf((obj as RoleBinding).subjects)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name))
    .join(', ');
}

function bindingColumns(what: 'roleBinding' | 'clusterRoleBinding', roleRefDescription: string): TableColumn[] {
  return [
    { name: 'Role', type: 'string', description: roleRefDescription, cell: (obj) => `${(obj as RoleBinding).roleRef?.kind ?? ''}/${(obj as RoleBinding).roleRef?.name ?? ''}` },
    ageColumn,
    { name: 'Users', type: 'string', priority: 1, description: `Users in the ${what}`, cell: (obj) => subjectsOf(obj, 'User') },
    { name: 'Groups', type: 'string', priority: 1, description: `Groups in the ${what}`, cell: (obj) => subjectsOf(obj, 'Group') },
    { name: 'ServiceAccounts', type: 'string', priority: 1, description: `ServiceAccounts in the ${what}`, cell: (obj) => subjectsOf(obj, 'ServiceAccount') },
  ];
}

const common = { group: RBAC_GROUP, version: 'v1', nameValidation: 'path-segment' as const };

export const rolesResource: ResourceDefinition = {
  ...common,
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  namespaced: true,
  storagePrefix: RBAC_STORAGE_PREFIXES.Role.resource,
  strategy: roleStrategy(true),
  tableColumns: [createdAtColumn],
  tableAge: false,
};

export const clusterRolesResource: ResourceDefinition = {
  ...common,
  kind: 'ClusterRole',
  plural: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  storagePrefix: RBAC_STORAGE_PREFIXES.ClusterRole.resource,
  strategy: roleStrategy(false),
  tableColumns: [createdAtColumn],
  tableAge: false,
};

export const roleBindingsResource: ResourceDefinition = {
  ...common,
  kind: 'RoleBinding',
  plural: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  storagePrefix: RBAC_STORAGE_PREFIXES.RoleBinding.resource,
  strategy: bindingStrategy(true),
  tableColumns: bindingColumns('roleBinding', 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.'),
};

export const clusterRoleBindingsResource: ResourceDefinition = {
  ...common,
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  storagePrefix: RBAC_STORAGE_PREFIXES.ClusterRoleBinding.resource,
  strategy: bindingStrategy(false),
  tableColumns: bindingColumns('clusterRoleBinding', 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.'),
};

export const rbacResources: ResourceDefinition[] = [clusterRoleBindingsResource, clusterRolesResource, roleBindingsResource, rolesResource];
