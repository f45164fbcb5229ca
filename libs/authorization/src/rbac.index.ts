import type { KubeObject } from '@kube/apimachinery';
import type { AuthorizationAttributes, UserInfo } from '@kube/apiserver';
import { goQuote } from './go.format';
import { CompiledRule } from './rule.matching';
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
  /** Allow reasons by the subject key the binding was found under (built once, on first use). */
  reasons?: Map<string, string>;
}

/** What the first allowing rule was found through, or the resolution errors met when none allows. */
export type AllowSearch = { entry: BindingEntry; key: string } | { entry?: undefined; errors?: string[] };

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
  /** Compiled rules per role object version (objects are replaced, never mutated, on change). */
  private readonly compiled = new WeakMap<object, readonly CompiledRule[]>();
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

  /** The rules of a binding's role compiled for matching, undefined when the role is missing. */
  private compiledRulesOf(entry: BindingEntry): readonly CompiledRule[] | undefined {
    if (!entry.roleKey) return undefined;
    const role = entry.roleKey.startsWith('c/') ? this.clusterRoles.get(entry.binding.roleRef.name) : this.roles.get(`${entry.namespace}/${entry.binding.roleRef.name}`);
    if (!role) return undefined;
    let rules = this.compiled.get(role);
    if (!rules) {
      rules = (role.rules ?? []).map((r) => new CompiledRule(r));
      this.compiled.set(role, rules);
    }
    return rules;
  }

  /**
   * The hot path of the authorizer: the bindings naming the user (then each of their groups), cluster-wide then
   * in the namespace, scanned for the first rule that allows. Map lookups and set lookups only.
   */
  findAllowing(attrs: AuthorizationAttributes): AllowSearch {
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    const search: { errors?: string[] } = {};
    const found = this.scanSubjects(this.clusterBySubject, attrs, combined, search);
    if (found) return found;
    const nsMap = attrs.namespace ? this.namespacedBySubject.get(attrs.namespace) : undefined;
    return (nsMap && this.scanSubjects(nsMap, attrs, combined, search)) || search;
  }

  private scanSubjects(bySubject: Map<string, BindingEntry[]>, attrs: AuthorizationAttributes, combined: string, search: { errors?: string[] }): AllowSearch | undefined {
    const userKey = `u:${attrs.user.name}`;
    const byUser = this.scan(bySubject.get(userKey), attrs, combined, search);
    if (byUser) return { entry: byUser, key: userKey };
    for (const g of attrs.user.groups) {
      const key = `g:${g}`;
      const byGroup = this.scan(bySubject.get(key), attrs, combined, search);
      if (byGroup) return { entry: byGroup, key };
    }
    return undefined;
  }

  private scan(entries: readonly BindingEntry[] | undefined, attrs: AuthorizationAttributes, combined: string, search: { errors?: string[] }): BindingEntry | undefined {
    if (!entries) return undefined;
    for (const entry of entries) {
      const rules = this.compiledRulesOf(entry);
      if (!rules) {
        (search.errors ??= []).push(this.rulesOf(entry).error as string);
        continue;
      }
      for (const rule of rules) if (rule.allows(attrs, combined)) return entry;
    }
    return undefined;
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

/**
 * kube's allow reason, `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to Group "z"`, for a binding
 * found under `key`: built once per binding and key. (kube names the binding's first subject that applies to
 * the user; this names the one the lookup went through, the same unless a binding names the user twice.)
 */
export function allowReason(entry: BindingEntry, key: string): string {
  let reason = entry.reasons?.get(key);
  if (reason === undefined) {
    const subject = (entry.binding.subjects ?? []).find((s) => subjectKey(s, entry.namespace) === key) ?? { kind: '', name: '' };
    reason = `RBAC: allowed by ${describe(entry, subject)}`;
    (entry.reasons ??= new Map()).set(key, reason);
  }
  return reason;
}

function describe(entry: BindingEntry, subject: Subject): string {
  const b = entry.binding;
  const name = entry.kind === 'RoleBinding' ? `${b.metadata.name}/${entry.namespace}` : (b.metadata.name ?? '');
  return `${entry.kind} ${goQuote(name)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(subject, entry.namespace)}`;
}
