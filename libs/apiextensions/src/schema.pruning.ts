/**
 * Structural pruning of custom resources (pkg/apiserver/schema/pruning/algorithm.go) plus the metadata
 * coercion kube does around it (objectmeta/coerce.go and the CR handler's unstructuredSchemaCoercer).
 */
import type { JSONSchemaProps } from '@kube/apimachinery';
import { indexPath, keyPath, childPath } from './field-path.format';
import { isJsonMap } from './json.values';
import { coerceObjectMeta } from './object-meta.coercion';
import { additionalPropertiesSchema, anyStructuralNode, itemsSchema } from './schema.props';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** Collects unknown field paths the way UnknownFieldPathOptions renders them ("spec.items[0].bar"). */
class UnknownFields {
  readonly paths: string[] = [];
  constructor(private readonly track: boolean) {}

  record(parent: string, key: string): void {
    if (this.track) this.paths.push(appendKey(parent, key));
  }
}

function appendKey(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

const isEmbedded = (s: JSONSchemaProps | undefined): boolean => s?.['x-kubernetes-embedded-resource'] === true;

/** The schema of a map entry not in properties: additionalProperties' schema, or none (even for `true`). */
function hasAdditionalProperties(s: JSONSchemaProps): boolean {
  return s.additionalProperties !== undefined && s.additionalProperties !== null;
}

function prune(x: unknown, s: JSONSchemaProps | undefined, parent: string, unknown: UnknownFields): void {
  if (s?.['x-kubernetes-preserve-unknown-fields']) {
    skipPrune(x, s, parent, unknown);
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((v, i) => prune(v, s ? itemsSchema(s) : undefined, `${parent}[${i}]`, unknown));
    return;
  }
  if (!isJsonMap(x)) return;
  for (const k of Object.keys(x)) {
    if (!s) {
      unknown.record(parent, k);
      delete x[k];
      continue;
    }
    if (isEmbedded(s) && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop) prune(x[k], prop, appendKey(parent, k), unknown);
    else if (hasAdditionalProperties(s)) prune(x[k], additionalPropertiesSchema(s), appendKey(parent, k), unknown);
    else {
      if (!META_FIELDS.has(k) || parent) unknown.record(parent, k);
      delete x[k];
    }
  }
}

/** Below x-kubernetes-preserve-unknown-fields: unknown fields stay, known ones are still pruned inside. */
function skipPrune(x: unknown, s: JSONSchemaProps, parent: string, unknown: UnknownFields): void {
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => items && skipPrune(v, items, `${parent}[${i}]`, unknown));
    return;
  }
  if (!isJsonMap(x)) return;
  for (const k of Object.keys(x)) {
    if (isEmbedded(s) && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop) prune(x[k], prop, appendKey(parent, k), unknown);
    else if (hasAdditionalProperties(s)) prune(x[k], additionalPropertiesSchema(s), appendKey(parent, k), unknown);
  }
}

/**
 * pruning.PruneWithOptions: removes from obj (in place) every field s does not specify and returns their
 * paths, sorted. With isResourceRoot, apiVersion/kind/metadata at the top are left alone, as they are at
 * every x-kubernetes-embedded-resource.
 */
export function pruneWithSchema(obj: unknown, s: JSONSchemaProps, isResourceRoot: boolean, track = true): string[] {
  const schema = isResourceRoot && !isEmbedded(s) ? { ...s, 'x-kubernetes-embedded-resource': true } : s;
  const unknown = new UnknownFields(track);
  prune(obj, schema, '', unknown);
  return unknown.paths.sort();
}

/** objectmeta.Coerce over embedded resources (not the root): their metadata is coerced like the root's. */
function coerceEmbedded(x: unknown, s: JSONSchemaProps | undefined, path: string, unknown: string[]): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => coerceEmbedded(v, items, indexPath(path, i), unknown));
    return;
  }
  if (!isJsonMap(x)) return;
  if (isEmbedded(s)) unknown.push(...coerceObjectMeta(x, path));
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties?.[k];
    if (prop) coerceEmbedded(v, prop, childPath(path, k), unknown);
    else if (hasAdditionalProperties(s)) coerceEmbedded(v, additionalPropertiesSchema(s), keyPath(path, k), unknown);
  }
}

/**
 * Prunes a custom resource in place, as the CR handler does on decode: metadata is coerced to ObjectMeta
 * (at the root and in embedded resources), every other field the schema does not specify is dropped,
 * except below x-kubernetes-preserve-unknown-fields. Returns the dropped fields' paths ("spec.foo",
 * "spec.items[0].bar", "metadata.foo"): root metadata first, then the pruned fields sorted, then the
 * embedded resources' metadata fields sorted, the order kube reports them in.
 */
export function pruneCustomResource(obj: Record<string, unknown>, schema: JSONSchemaProps): string[] {
  const rootMeta = coerceObjectMeta(obj);
  const pruned = pruneWithSchema(obj, schema, true);
  const embedded: string[] = [];
  // Most schemas embed no resource: the walk is skipped (the answer is computed once per schema).
  if (anyStructuralNode(schema, isEmbedded)) coerceEmbedded(obj, { ...schema, 'x-kubernetes-embedded-resource': false }, '', embedded);
  return [...rootMeta, ...pruned, ...embedded.sort()];
}

