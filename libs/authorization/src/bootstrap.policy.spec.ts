import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_ROLES, BOOTSTRAP_ROLE_BINDINGS } from './bootstrap.policy';
import { aggregatedRules } from './clusterrole.aggregation';
import type { ClusterRole } from './rbac.types';

interface Golden {
  kind: string;
  metadata: { name: string; namespace?: string; creationTimestamp?: null };
  rules?: unknown[] | null;
}

function golden(file: string): Golden[] {
  return (parse(readFileSync(join(__dirname, 'testdata', file), 'utf8')) as { items: Golden[] }).items;
}

/** The golden files print empty rule lists as null and a null creationTimestamp; our objects are as we store them. */
function normalize(obj: object): unknown {
  const o = structuredClone(obj) as Golden;
  delete o.metadata.creationTimestamp;
  if (!o.rules || o.rules.length === 0) delete o.rules;
  return o;
}

function byName(items: readonly { kind?: string; metadata: { name?: string; namespace?: string } }[]): Map<string, unknown> {
  return new Map(items.map((i) => [`${i.kind}/${i.metadata.namespace ?? ''}/${i.metadata.name}`, normalize(i)]));
}

describe('bootstrap policy', () => {
  it('is kube\'s, object for object (golden testdata of plugin/pkg/auth/authorizer/rbac/bootstrappolicy)', () => {
    const cases: [readonly object[], string][] = [
      [BOOTSTRAP_CLUSTER_ROLES, 'cluster-roles.yaml'],
      [BOOTSTRAP_CLUSTER_ROLE_BINDINGS, 'cluster-role-bindings.yaml'],
      [[...BOOTSTRAP_ROLES, ...BOOTSTRAP_ROLE_BINDINGS], 'namespace-roles.yaml'],
    ];
    for (const [ours, file] of cases) {
      const expected = byName(golden(file));
      const actual = byName(ours as never);
      expect([...actual.keys()].sort(), file).toEqual([...expected.keys()].sort());
      for (const [key, obj] of actual) expect(obj, key).toEqual(expected.get(key));
    }
  });

  it('has the roles and bindings the issue names', () => {
    const names = BOOTSTRAP_CLUSTER_ROLES.map((r) => r.metadata.name);
    for (const n of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:auth-delegator']) expect(names).toContain(n);
    const publicInfo = BOOTSTRAP_CLUSTER_ROLE_BINDINGS.find((b) => b.metadata.name === 'system:public-info-viewer');
    expect(publicInfo?.subjects?.map((s) => s.name)).toEqual(['system:authenticated', 'system:unauthenticated']);
  });

  it('aggregates admin ⊇ edit ⊇ view through the aggregate-to labels', () => {
    const roles = new Map<string, ClusterRole>(BOOTSTRAP_CLUSTER_ROLES.map((r) => [r.metadata.name as string, structuredClone(r)]));
    // Aggregation runs to a fixed point, as the controller does through its watch.
    for (let i = 0; i < 3; i++) for (const r of roles.values()) r.rules = aggregatedRules(r, roles.values()) ?? r.rules;
    const view = roles.get('view')?.rules ?? [];
    const edit = roles.get('edit')?.rules ?? [];
    const admin = roles.get('admin')?.rules ?? [];
    expect(view).toEqual(roles.get('system:aggregate-to-view')?.rules);
    expect(edit.length).toBe(view.length + (roles.get('system:aggregate-to-edit')?.rules?.length ?? 0));
    expect(admin.length).toBe(edit.length + 2);
    expect(roles.get('cluster-admin')?.rules?.length).toBe(2);
  });
});
