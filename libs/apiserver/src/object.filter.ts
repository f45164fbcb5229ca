import { Errors, fieldSelectorNotKnownError, parseFieldSelector, parseLabelSelector, type FieldSelector, type KubeObject, type LabelSelector } from '@kube/apimachinery';
import type { ResourceDefinition } from './resource.definition';

const META_FIELDS = ['metadata.name', 'metadata.namespace'];

/** Label and field selectors of a LIST/WATCH, checked once against the fields the resource supports. */
export class ObjectFilter {
  private constructor(
    private readonly labels: LabelSelector | undefined,
    private readonly fields: FieldSelector | undefined,
    private readonly fieldsOf: (obj: KubeObject) => Record<string, string>,
  ) {}

  static parse(labelSelector: string | undefined, fieldSelector: string | undefined, def: ResourceDefinition): ObjectFilter {
    const labels = labelSelector ? parseLabelSelector(labelSelector) : undefined;
    const fields = fieldSelector ? parseFieldSelector(fieldSelector) : undefined;
    const custom = def.strategy?.fields;
    const fieldsOf = (obj: KubeObject): Record<string, string> => {
      const base: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
      if (def.namespaced) base['metadata.namespace'] = obj.metadata.namespace ?? '';
      return custom ? { ...base, ...custom(obj) } : base;
    };
    if (fields && !fields.empty) {
      const known = new Set([...META_FIELDS, ...Object.keys(safeFields(custom))]);
      for (const r of fields.requirements) {
        if (known.has(r.field)) continue;
        throw def.strategy?.unknownFieldLabel ? Errors.badRequest(def.strategy.unknownFieldLabel(r.field)) : fieldSelectorNotKnownError(r.field, [...known]);
      }
    }
    return new ObjectFilter(labels && !labels.empty ? labels : undefined, fields && !fields.empty ? fields : undefined, fieldsOf);
  }

  get empty(): boolean {
    return !this.labels && !this.fields;
  }

  matches(obj: KubeObject): boolean {
    if (this.labels && !this.labels.matches(obj.metadata.labels ?? {})) return false;
    if (this.fields && !this.fields.matches(this.fieldsOf(obj))) return false;
    return true;
  }
}

/** The field names a strategy exposes, read off an empty object. */
function safeFields(fn: ((obj: KubeObject) => Record<string, string>) | undefined): Record<string, string> {
  if (!fn) return {};
  try {
    return fn({ metadata: {} });
  } catch {
    return {};
  }
}
