/**
 * Validation of x-kubernetes-embedded-resource objects (pkg/apiserver/schema/objectmeta/validation.go):
 * apiVersion and kind are required strings, metadata is checked like an object's metadata.
 */
import { FieldError, isDNS1035Label, validateAnnotations, validateLabels, isDNS1123Label, type JSONSchemaProps } from '@kube/apimachinery';
import { childPath, indexPath, keyPath } from './field-path.format';
import { isJsonMap, type JsonMap } from './json.values';
import { additionalPropertiesSchema, anyStructuralNode, itemsSchema } from './schema.props';

/** schema.ParseGroupVersion's error, if any. */
function groupVersionError(apiVersion: string): string | undefined {
  if (apiVersion === '/' || apiVersion.split('/').length <= 2) return undefined;
  return `unexpected GroupVersion string: ${apiVersion}`;
}

/** path.IsValidPathSegmentName / IsValidPathSegmentPrefix. */
function pathSegmentErrors(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

function validateTypeMeta(path: string, x: JsonMap): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push(FieldError.required(childPath(path, 'apiVersion')));
  if (!('kind' in x)) errs.push(FieldError.required(childPath(path, 'kind')));
  for (const field of ['apiVersion', 'kind'] as const) {
    if (!(field in x)) continue;
    const p = childPath(path, field);
    const v = x[field];
    if (typeof v !== 'string') errs.push(FieldError.invalid(p, v, 'must be a string'));
    else if (v === '') errs.push(FieldError.invalid(p, v, 'must not be empty'));
    else if (field === 'apiVersion') {
      const err = groupVersionError(v);
      if (err) errs.push(FieldError.invalid(p, v, err));
    } else {
      const msgs = isDNS1035Label(v.toLowerCase());
      if (msgs.length) errs.push(FieldError.invalid(p, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
    }
  }
  return errs;
}

const asStringMap = (v: unknown): Record<string, string> | undefined => (isJsonMap(v) ? (v as Record<string, string>) : undefined);

function validateMetadata(path: string, meta: unknown): FieldError[] {
  const p = childPath(path, 'metadata');
  if (!isJsonMap(meta)) return meta === null || meta === undefined ? [] : [FieldError.invalid(p, meta, 'must be an object')];
  const errs: FieldError[] = [];
  const name = typeof meta.name === 'string' && meta.name ? meta.name : 'fakename';
  errs.push(...pathSegmentErrors(name, false).map((m) => FieldError.invalid(childPath(p, 'name'), name, m)));
  if (typeof meta.generateName === 'string' && meta.generateName) {
    const gn = meta.generateName;
    errs.push(...pathSegmentErrors(gn, true).map((m) => FieldError.invalid(childPath(p, 'generateName'), gn, m)));
  }
  if (typeof meta.namespace === 'string' && meta.namespace) {
    const ns = meta.namespace;
    errs.push(...isDNS1123Label(ns).map((m) => FieldError.invalid(childPath(p, 'namespace'), ns, m)));
  }
  errs.push(...validateLabels(asStringMap(meta.labels), childPath(p, 'labels')));
  errs.push(...validateAnnotations(asStringMap(meta.annotations), childPath(p, 'annotations')));
  return errs;
}

const isEmbedded = (s: JSONSchemaProps): boolean => !!s['x-kubernetes-embedded-resource'];

function walk(path: string, x: unknown, s: JSONSchemaProps | undefined): FieldError[] {
  if (!s || !anyStructuralNode(s, isEmbedded)) return [];
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    return x.flatMap((v, i) => walk(indexPath(path, i), v, items));
  }
  if (!isJsonMap(x)) return [];
  const errs: FieldError[] = [];
  if (s['x-kubernetes-embedded-resource']) errs.push(...validateTypeMeta(path, x), ...('metadata' in x ? validateMetadata(path, x.metadata) : []));
  const hasAP = s.additionalProperties !== undefined && s.additionalProperties !== null;
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties?.[k];
    if (prop) errs.push(...walk(childPath(path, k), v, prop));
    else if (hasAP) errs.push(...walk(keyPath(path, k), v, additionalPropertiesSchema(s)));
  }
  return errs;
}

/**
 * objectmeta.Validate with isResourceRoot=false: checks every embedded resource below the root (the
 * root's own type and object meta are the API server's business).
 */
export function validateEmbeddedResources(obj: unknown, schema: JSONSchemaProps, path = ''): FieldError[] {
  return walk(path, obj, schema);
}
