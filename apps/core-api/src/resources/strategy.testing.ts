/** Test helpers for the resource specs: run a strategy the way the generic REST handler does, read table cells. */
import type { FieldError, KubeObject } from '@kube/apimachinery';
import type { RequestContext, ResourceDefinition } from '@kube/apiserver';

export const ctx: RequestContext = { user: { name: 'tester', groups: [] }, dryRun: false, warnings: [] };

/** A fixed clock for age cells: 2024-01-01T00:10:00Z. */
export const NOW = Date.parse('2024-01-01T00:10:00Z');

export function messages(errors: readonly FieldError[]): string[] {
  return errors.map((e) => e.toString());
}

/** default → prepareForCreate → validate, as a POST runs them. Mutates and returns the errors. */
export function create(def: ResourceDefinition, obj: KubeObject): FieldError[] {
  const s = def.strategy ?? {};
  s.default?.(obj);
  s.prepareForCreate?.(obj, ctx);
  return s.validate?.(obj, ctx) ?? [];
}

/** default → prepareForUpdate → validateUpdate, as a PUT runs them. Mutates and returns the errors. */
export function update(def: ResourceDefinition, obj: KubeObject, old: KubeObject): FieldError[] {
  const s = def.strategy ?? {};
  s.default?.(obj);
  s.prepareForUpdate?.(obj, old, ctx);
  return s.validateUpdate?.(obj, old, ctx) ?? s.validate?.(obj, ctx) ?? [];
}

/** Column name → cell, for one object. */
export function cells(def: ResourceDefinition, obj: KubeObject): Record<string, unknown> {
  const cell = (c: { cell(obj: KubeObject, now?: number): unknown }): unknown => c.cell(obj, NOW);
  return Object.fromEntries((def.tableColumns ?? []).map((c) => [c.name, cell(c)]));
}

export function meta(name: string, namespace?: string): KubeObject['metadata'] {
  return namespace ? { name, namespace, creationTimestamp: '2024-01-01T00:00:00Z' } : { name, creationTimestamp: '2024-01-01T00:00:00Z' };
}
