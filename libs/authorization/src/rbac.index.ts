import type { KubeObject } from '@kube/apimachinery';
import type { UserInfo } from '@kube/apiserver';
import { goQuote } from './go.format';
import { serviceAccountUsername, type ClusterRole, type PolicyRule, type Role, type RoleBinding, type Subject } from './rbac.types';

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

/** A binding as the index keeps it: where its rules come from and who it applies to. */
export interface BindingEntry {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  binding: RoleBinding;
  /** '' for ClusterRoleBindings. */
  namespace: string;
  /** Key of the referenced role in the index's role maps ('' for an unsupported kind). */
  roleKey: string;
}

/** What a rule visitor sees: the rule and the binding it came from (to describe it when it allows). */
export type RuleVisitor = (entry: BindingEntry, rule: PolicyRule) => boolean;

const EMPTY: readonly BindingEntry[] = [];

/** The subject keys a binding subject matches: users by name (service accounts by their username), groups by name. */
function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return `u:${subject.name}`;
    case 'Group':
      return `g:${subject.name}`;
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      return ns ? `u:${serviceAccountUsername(ns, subject.name)}` : undefined;
    }
    default:
      return undefined;
  }
}

/** appliesToUser: the binding subject matches this user. */
function appliesTo(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      return !!ns && user.name === serviceAccountUsername(ns, subject.name);
    }
    default:
      return false;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

/**
 * The RBAC objects in memory, indexed for the authorizer: roles by key, and bindings by the subjects they name
 * (per namespace for RoleBindings). A request looks up its user and groups — a few map reads — and scans
 * only the rules of the bindings that name them. Role rules are read through the role map at request time,
 * so a role change costs one map write; a binding change re-indexes that binding only.
 */
export class RbacIndex {
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly roles = new Map<string, Role>();
  private readonly bindings = new Map<string, { entry: BindingEntry; keys: string[] }>();
  private readonly clusterBySubject = new Map<string, BindingEntry[]>();
  private readonly namespacedBySubject = new Map<string, Map<string, BindingEntry[]>>();
  /** Bumped on every change (consumers cache derived data by it). */
  generation = 0;

  apply(kind: RbacKind, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void {
    this.generation++;
    const ns = obj.metadata.namespace ?? '';
    const name = obj.metadata.name ?? '';
    const deleted = type === 'DELETED';
    switch (kind) {
      case 'ClusterRole':
        if (deleted) this.clusterRoles.delete(name);
        else this.clusterRoles.set(name, obj as ClusterRole);
        return;
      case 'Role':
        if (deleted) this.roles.delete(`${ns}/${name}`);
        else this.roles.set(`${ns}/${name}`, obj as Role);
        return;
      case 'ClusterRoleBinding':
      case 'RoleBinding':
        this.removeBinding(`${kind}/${ns}/${name}`);
        if (!deleted) this.addBinding(kind, obj as RoleBinding);
        return;
    }
  }

  /** Drops every object (before a re-list). */
  clear(): void {
    this.generation++;
    this.clusterRoles.clear();
    this.roles.clear();
    this.bindings.clear();
    this.clusterBySubject.clear();
    this.namespacedBySubject.clear();
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(name);
  }

  role(namespace: string, name: string): Role | undefined {
    return this.roles.get(`${namespace}/${name}`);
  }

  get allClusterRoles(): IterableIterator<ClusterRole> {
    return this.clusterRoles.values();
  }

  private addBinding(kind: 'RoleBinding' | 'ClusterRoleBinding', binding: RoleBinding): void {
    const ns = kind === 'RoleBinding' ? (binding.metadata.namespace ?? '') : '';
    const ref = binding.roleRef ?? { kind: '', name: '', apiGroup: '' };
    const roleKey = ref.kind === 'ClusterRole' ? `c/${ref.name}` : ref.kind === 'Role' && ns ? `r/${ns}/${ref.name}` : '';
    const entry: BindingEntry = { kind, binding, namespace: ns, roleKey };
    const keys = [...new Set((binding.subjects ?? []).map((s) => subjectKey(s, ns)).filter((k): k is string => k !== undefined))];
    const bySubject = kind === 'ClusterRoleBinding' ? this.clusterBySubject : this.namespaceMap(ns, true)!;
    for (const key of keys) {
      const list = bySubject.get(key);
      if (list) list.push(entry);
      else bySubject.set(key, [entry]);
    }
    this.bindings.set(`${kind}/${ns}/${binding.metadata.name}`, { entry, keys });
  }

  private removeBinding(id: string): void {
    const found = this.bindings.get(id);
    if (!found) return;
    this.bindings.delete(id);
    const bySubject = found.entry.kind === 'ClusterRoleBinding' ? this.clusterBySubject : this.namespaceMap(found.entry.namespace, false);
    if (!bySubject) return;
    for (const key of found.keys) {
      const list = bySubject.get(key);
      if (!list) continue;
      const i = list.indexOf(found.entry);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) bySubject.delete(key);
    }
    if (found.entry.kind === 'RoleBinding' && bySubject.size === 0) this.namespacedBySubject.delete(found.entry.namespace);
  }

  private namespaceMap(ns: string, create: boolean): Map<string, BindingEntry[]> | undefined {
    let m = this.namespacedBySubject.get(ns);
    if (!m && create) {
      m = new Map();
      this.namespacedBySubject.set(ns, m);
    }
    return m;
  }

  /**
   * The rules of a binding's role, or the error kube's listers give for a missing one
   * (`clusterrole.rbac.authorization.k8s.io "x" not found`).
   */
  rulesOf(entry: BindingEntry): { rules: readonly PolicyRule[]; error?: string } {
    const ref = entry.binding.roleRef;
    if (!entry.roleKey) return { rules: [], error: `unsupported role reference kind: ${goQuote(ref?.kind ?? '')}` };
    const role = entry.roleKey.startsWith('c/') ? this.clusterRoles.get(ref.name) : this.roles.get(`${entry.namespace}/${ref.name}`);
    if (!role) return { rules: [], error: `${ref.kind === 'ClusterRole' ? 'clusterrole' : 'role'}.rbac.authorization.k8s.io ${goQuote(ref.name)} not found` };
    return { rules: role.rules ?? [] };
  }

  /** Role rules by reference, for escalation checks of a binding (GetRoleReferenceRules). */
  roleReferenceRules(ref: { kind: string; name: string }, bindingNamespace: string): { rules: readonly PolicyRule[]; error?: string } {
    const entry: BindingEntry = {
      kind: bindingNamespace ? 'RoleBinding' : 'ClusterRoleBinding',
      binding: { metadata: {}, roleRef: { apiGroup: '', ...ref } } as RoleBinding,
      namespace: bindingNamespace,
      roleKey: ref.kind === 'ClusterRole' ? `c/${ref.name}` : ref.kind === 'Role' && bindingNamespace ? `r/${bindingNamespace}/${ref.name}` : '',
    };
    return this.rulesOf(entry);
  }

  /**
   * Visits the rules that apply to a user in a namespace (cluster bindings first, then the namespace's), as
   * VisitRulesFor does; stops when the visitor returns false. Errors (missing roles) go to `onError`.
   */
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor, onError: (message: string) => void): void {
    if (!this.visitIn(this.clusterBySubject, user, visitor, onError)) return;
    if (!namespace) return;
    const nsMap = this.namespacedBySubject.get(namespace);
    if (nsMap) this.visitIn(nsMap, user, visitor, onError);
  }

  private visitIn(bySubject: Map<string, BindingEntry[]>, user: UserInfo, visitor: RuleVisitor, onError: (message: string) => void): boolean {
    if (!this.visitList(bySubject.get(`u:${user.name}`) ?? EMPTY, visitor, onError)) return false;
    for (const g of user.groups) if (!this.visitList(bySubject.get(`g:${g}`) ?? EMPTY, visitor, onError)) return false;
    return true;
  }

  private visitList(entries: readonly BindingEntry[], visitor: RuleVisitor, onError: (message: string) => void): boolean {
    for (const entry of entries) {
      const { rules, error } = this.rulesOf(entry);
      if (error) onError(error);
      for (const rule of rules) if (!visitor(entry, rule)) return false;
    }
    return true;
  }

  /** Every binding that applies to the user, each once (for rule listings). */
  bindingsFor(user: UserInfo, namespace: string): BindingEntry[] {
    const seen = new Set<BindingEntry>();
    const collect = (m: Map<string, BindingEntry[]> | undefined): void => {
      if (!m) return;
      for (const key of [`u:${user.name}`, ...user.groups.map((g) => `g:${g}`)]) for (const e of m.get(key) ?? EMPTY) seen.add(e);
    };
    collect(this.clusterBySubject);
    if (namespace) collect(this.namespacedBySubject.get(namespace));
    return [...seen];
  }
}

/** The source description kube's RBAC gives in its allow reason: `ClusterRoleBinding "x" of ClusterRole "y" to Group "z"`. */
export function describeBinding(entry: BindingEntry, user: UserInfo): string {
  const b = entry.binding;
  const subject = (b.subjects ?? []).find((s) => appliesTo(user, s, entry.namespace)) ?? { kind: '', name: '' };
  const name = entry.kind === 'RoleBinding' ? `${b.metadata.name}/${entry.namespace}` : (b.metadata.name ?? '');
  return `${entry.kind} ${goQuote(name)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(subject, entry.namespace)}`;
}
