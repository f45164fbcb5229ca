/** RBAC rule matching (plugin/pkg/auth/authorizer/rbac RuleAllows with rbacv1helpers' matchers). */
import type { AuthorizationAttributes } from '@kube/apiserver';
import type { PolicyRule } from './rbac.types';

/**
 * A rule prepared for matching: sets instead of lists, wildcards as flags. Compiled once per role version, so
 * a request does only set lookups.
 */
export class CompiledRule {
  private readonly allVerbs: boolean;
  private readonly verbs: ReadonlySet<string>;
  private readonly allGroups: boolean;
  private readonly groups: ReadonlySet<string>;
  private readonly allResources: boolean;
  private readonly resources: ReadonlySet<string>;
  /** Subresources granted on every resource (`*\/scale`). */
  private readonly anySubresource: ReadonlySet<string>;
  private readonly names?: ReadonlySet<string>;
  private readonly allURLs: boolean;
  private readonly urls: ReadonlySet<string>;
  private readonly urlPrefixes: readonly string[];

  constructor(readonly rule: PolicyRule) {
    const verbs = rule.verbs ?? [];
    this.allVerbs = verbs.includes('*');
    this.verbs = new Set(verbs);
    this.allGroups = (rule.apiGroups ?? []).includes('*');
    this.groups = new Set(rule.apiGroups ?? []);
    const resources = rule.resources ?? [];
    this.allResources = resources.includes('*');
    this.resources = new Set(resources);
    this.anySubresource = new Set(resources.filter((r) => r.startsWith('*/')).map((r) => r.slice(2)));
    this.names = rule.resourceNames?.length ? new Set(rule.resourceNames) : undefined;
    const urls = rule.nonResourceURLs ?? [];
    this.allURLs = urls.includes('*');
    this.urls = new Set(urls);
    this.urlPrefixes = urls.filter((u) => u.endsWith('*')).map((u) => u.replace(/\*+$/, ''));
  }

  /**
   * RuleAllows: verb (or `*`), then group, resource as `resource[/subresource]`, `*` or `*\/subresource`, and
   * resourceNames (none = any); non-resource requests match URLs exactly, by `*`, or by a prefix ending in `*`.
   * `combined` is resource[/subresource], computed once per request.
   */
  allows(attrs: AuthorizationAttributes, combined: string): boolean {
    if (!this.allVerbs && !this.verbs.has(attrs.verb)) return false;
    if (attrs.resourceRequest) {
      if (!this.allGroups && !this.groups.has(attrs.apiGroup)) return false;
      if (!this.allResources && !this.resources.has(combined) && !(attrs.subresource && this.anySubresource.has(attrs.subresource))) return false;
      return !this.names || this.names.has(attrs.name);
    }
    if (this.allURLs || this.urls.has(attrs.path)) return true;
    for (const p of this.urlPrefixes) if (attrs.path.startsWith(p)) return true;
    return false;
  }
}
