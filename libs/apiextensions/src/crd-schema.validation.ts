/**
 * The schema rules of CRD validation beyond structurality (pkg/apis/apiextensions/validation/validation.go
 * ValidateCustomResourceDefinitionOpenAPISchema and defaulting/validation.go ValidateDefaults), for a new
 * CRD: unsupported keywords, defaults (allowed, pruned, valid), list and map types, x-kubernetes-validations
 * (well-formed, and compiling against the schema). Structural errors themselves come from
 * validateStructuralSchema; as in kube, defaults and CEL rules are only checked on a structural schema.
 */
import { FieldError, type JSONSchemaProps } from '@kube/apimachinery';
import { CelRuleValidator } from './cel.validation';
import { schemaRules, type NodeRules, type SchemaRules } from './cel.compilation';
import { validateEmbeddedResources } from './embedded-resource.validation';
import { childPath, indexPath, keyPath } from './field-path.format';
import { deepCopyJson, deepEqualJson } from './json.values';
import { validateOpenAPISchema } from './openapi-schema.validator';
import { validFieldPath } from './rule-field-path.parser';
import { pruneWithSchema } from './schema.pruning';
import { additionalPropertiesSchema, asNode, hasDefault, itemsIsArray, itemsSchema, properties, validations, type ValidationRule } from './schema.props';
import { DEFAULT_SCHEMA_PATH, structuralConversionError, validateStructuralSchema } from './structural-schema.validation';

const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** specStandardValidatorV3's state while descending: where defaults are banned, where oldSelf is. */
interface Context {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  /** The first ancestor below which old and new values cannot be correlated. */
  uncorrelatablePath?: string;
  /** Set when CEL rules are to be compiled (structural schema, valid defaults). */
  rules?: SchemaRules;
}

interface Errors {
  schema: FieldError[];
  cel: FieldError[];
}

const forbidDefaults = (ctx: Context, reason: string): Context => ({ ...ctx, allowDefaults: false, disallowDefaultsReason: reason });
const forbidOldSelf = (ctx: Context, path: string): Context => (ctx.uncorrelatablePath !== undefined ? ctx : { ...ctx, uncorrelatablePath: path });
const withoutRules = (ctx: Context): Context => ({ ...ctx, rules: undefined });

/** specStandardValidatorV3.validate: keywords CRDs do not support. */
function standardErrors(s: JSONSchemaProps, path: string, ctx: Context): FieldError[] {
  const n = asNode(s);
  const errs: FieldError[] = [];
  if (s.type && !OPENAPI_V3_TYPES.includes(s.type)) errs.push(FieldError.notSupported(childPath(path, 'type'), s.type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && !ctx.allowDefaults) {
    errs.push(FieldError.forbidden(childPath(path, 'default'), `must not be set${ctx.disallowDefaultsReason ? ` ${ctx.disallowDefaultsReason}` : ''}`));
  }
  if (n.id) errs.push(FieldError.forbidden(childPath(path, 'id'), 'id is not supported'));
  if (n.additionalItems !== undefined) errs.push(FieldError.forbidden(childPath(path, 'additionalItems'), 'additionalItems is not supported'));
  if (n.patternProperties && Object.keys(n.patternProperties).length) errs.push(FieldError.forbidden(childPath(path, 'patternProperties'), 'patternProperties is not supported'));
  if (n.definitions && Object.keys(n.definitions).length) errs.push(FieldError.forbidden(childPath(path, 'definitions'), 'definitions is not supported'));
  if (n.dependencies !== undefined) errs.push(FieldError.forbidden(childPath(path, 'dependencies'), 'dependencies is not supported'));
  if (n.$ref !== undefined) errs.push(FieldError.forbidden(childPath(path, '$ref'), '$ref is not supported'));
  if ((s.type as string) === 'null') errs.push(FieldError.forbidden(childPath(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (itemsIsArray(s) && (s.items as unknown as unknown[]).length) errs.push(FieldError.forbidden(childPath(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource']) {
    errs.push(FieldError.forbidden(childPath(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

function merge(into: Errors, from: Errors): void {
  into.schema.push(...from.schema);
  into.cel.push(...from.cel);
}

/** ValidateCustomResourceDefinitionOpenAPISchema, recursively. */
function validateNode(s: JSONSchemaProps | undefined, path: string, ctx: Context, isRoot: boolean): Errors {
  const out: Errors = { schema: [], cel: [] };
  if (!s) return out;
  out.schema.push(...standardErrors(s, path, ctx));
  if (s.uniqueItems) out.schema.push(FieldError.forbidden(childPath(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  validateChildren(s, path, ctx, isRoot, out);
  out.schema.push(...mapAndListTypeErrors(s, path), ...mapListKeysMapSetErrors(s, path), ...ruleShapeErrors(s, path));
  // Rules are compiled only when nothing here or below is wrong with the schema itself.
  if (out.schema.length === 0 && ctx.rules && validations(s).length > 0) out.cel.push(...ruleCompileErrors(path, ctx, ctx.rules.forNode(s)));
  return out;
}

function validateChildren(s: JSONSchemaProps, path: string, ctx: Context, isRoot: boolean, out: Errors): void {
  const n = asNode(s);
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
    if (properties(s).length && s.additionalProperties !== true) {
      out.schema.push(FieldError.forbidden(childPath(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ctx.insideResourceMeta ? forbidDefaults(ctx, 'inside additionalProperties applying to object metadata') : ctx;
    merge(out, validateNode(additionalPropertiesSchema(s), childPath(path, 'additionalProperties'), sub, false));
  }
  const mapType = s['x-kubernetes-map-type'];
  for (const [k, p] of properties(s)) {
    let sub = mapType === undefined || mapType === 'granular' || mapType === 'atomic' ? ctx : forbidOldSelf(ctx, path);
    if ((isRoot || s['x-kubernetes-embedded-resource']) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${k}`);
    }
    merge(out, validateNode(p, keyPath(childPath(path, 'properties'), k), sub, false));
  }
  const noRules = withoutRules(ctx);
  if (s.not) merge(out, validateNode(s.not, childPath(path, 'not'), noRules, false));
  for (const [kw, list] of [['allOf', s.allOf], ['oneOf', s.oneOf], ['anyOf', s.anyOf]] as const) {
    (list ?? []).forEach((x, i) => merge(out, validateNode(x, indexPath(childPath(path, kw), i), noRules, false)));
  }
  for (const [k, d] of Object.entries(n.definitions ?? {})) merge(out, validateNode(d, keyPath(childPath(path, 'definitions'), k), noRules, false));
  if (s.items !== undefined) {
    const sub = s['x-kubernetes-list-type'] === 'map' ? ctx : forbidOldSelf(ctx, path);
    merge(out, validateNode(itemsSchema(s), childPath(path, 'items'), sub, false));
    if (itemsIsArray(s)) (s.items as unknown as JSONSchemaProps[]).forEach((x, i) => merge(out, validateNode(x, indexPath(childPath(path, 'items'), i), sub, false)));
  }
  for (const [k, d] of Object.entries(n.dependencies ?? {})) {
    if (!Array.isArray(d)) merge(out, validateNode(d, keyPath(childPath(path, 'dependencies'), k), noRules, false));
  }
}

function typeMustBe(s: JSONSchemaProps, path: string, want: string, detail: string): FieldError[] {
  if (s.type === want) return [];
  return [s.type ? FieldError.invalid(childPath(path, 'type'), s.type, detail) : FieldError.required(childPath(path, 'type'), detail)];
}

function mapAndListTypeErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mapType = s['x-kubernetes-map-type'] as string | undefined;
  const listType = s['x-kubernetes-list-type'] as string | undefined;
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errs.push(FieldError.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  if (mapType !== undefined) errs.push(...typeMustBe(s, path, 'object', 'must be object if x-kubernetes-map-type is specified'));
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(FieldError.notSupported(childPath(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  if (listType !== undefined && s.type !== 'array') errs.push(...typeMustBe(s, path, 'array', 'must be array if x-kubernetes-list-type is specified'));
  else if (listType === 'set') errs.push(...setItemErrors(s, path));
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) errs.push(FieldError.notSupported(childPath(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (mapKeys.length > 0 && listType !== 'map') {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    errs.push(listType === undefined ? FieldError.required(childPath(path, 'x-kubernetes-list-type'), detail) : FieldError.invalid(childPath(path, 'x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') errs.push(...listMapErrors(s, path, mapKeys));
  return errs;
}

/** Elements of a set must compare as wholes: nested lists atomic, nested maps atomic. */
function setItemErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const items = itemsSchema(s);
  const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
  const itemsPath = childPath(path, 'items');
  if (items?.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
    return [FieldError.invalid(childPath(itemsPath, 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], detail)];
  }
  if (items?.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
    // kube reports the items' list type here (nil, so null), not the map type.
    return [FieldError.invalid(childPath(itemsPath, 'x-kubernetes-map-type'), items['x-kubernetes-list-type'] ?? null, detail)];
  }
  return [];
}

function listMapErrors(s: JSONSchemaProps, path: string, mapKeys: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const itemsPath = childPath(path, 'items');
  const keysPath = childPath(path, 'x-kubernetes-list-map-keys');
  if (mapKeys.length === 0) errs.push(FieldError.required(keysPath, 'must not be empty if x-kubernetes-list-type is map'));
  if (s.items === undefined) errs.push(FieldError.required(itemsPath, 'must have a schema if x-kubernetes-list-type is map'));
  if (itemsIsArray(s)) errs.push(FieldError.invalid(itemsPath, s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
  const items = itemsSchema(s);
  if (items && items.type !== 'object') errs.push(FieldError.invalid(childPath(itemsPath, 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
  if (items?.type !== 'object') return errs;
  const seen = new Set<string>();
  for (const k of mapKeys) {
    const prop = items.properties?.[k];
    if (!prop) errs.push(FieldError.invalid(keysPath, mapKeys, 'entries must all be names of item properties'));
    else if (prop.type === 'array' || prop.type === 'object') {
      errs.push(FieldError.invalid(childPath(keyPath(childPath(itemsPath, 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    }
    if (seen.has(k)) errs.push(FieldError.invalid(keysPath, mapKeys, 'must not contain duplicate entries'));
    seen.add(k);
  }
  return errs;
}

/** validateMapListKeysMapSet: set/map items are not nullable; map keys are required or defaulted. */
function mapListKeysMapSetErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  const itemsPath = childPath(path, 'items');
  if (items.nullable) errs.push(FieldError.forbidden(childPath(itemsPath, 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errs;
  for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
    const prop = items.properties?.[k];
    if (!prop) continue;
    const propPath = keyPath(childPath(itemsPath, 'properties'), k);
    if (!(items.required ?? []).includes(k) && prop.default === undefined) {
      errs.push(FieldError.required(childPath(propPath, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (prop.nullable) errs.push(FieldError.forbidden(childPath(propPath, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errs;
}

const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

/** The shape of each x-kubernetes-validations entry. */
function ruleShapeErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  validations(s).forEach((rule, i) => {
    const rp = indexPath(childPath(path, 'x-kubernetes-validations'), i);
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (!trimmedRule) errs.push(FieldError.required(childPath(rp, 'rule'), 'rule is not specified'));
    else if (message && !trimmedMsg) errs.push(FieldError.invalid(childPath(rp, 'message'), message, 'must be non-empty if specified'));
    else if (hasNewlines(trimmedMsg)) errs.push(FieldError.invalid(childPath(rp, 'message'), message, 'must not contain line breaks'));
    else if (hasNewlines(trimmedRule) && !trimmedMsg) errs.push(FieldError.required(childPath(rp, 'message'), 'message must be specified if rule contains line breaks'));
    if (rule.messageExpression && !rule.messageExpression.trim()) {
      errs.push(FieldError.required(childPath(rp, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason)) errs.push(FieldError.notSupported(childPath(rp, 'reason'), rule.reason, SUPPORTED_REASONS));
    errs.push(...fieldPathErrors(s, rule.fieldPath, childPath(rp, 'fieldPath')));
  });
  return errs;
}

function fieldPathErrors(s: JSONSchemaProps, fieldPath: string | undefined, path: string): FieldError[] {
  if (!fieldPath) return [];
  const errs: FieldError[] = [];
  if (!fieldPath.trim()) errs.push(FieldError.invalid(path, fieldPath, 'must be non-empty if specified'));
  if (hasNewlines(fieldPath)) errs.push(FieldError.invalid(path, fieldPath, 'must not contain line breaks'));
  if (!structuralConversionError(s) && !validFieldPath(fieldPath, s).ok) errs.push(FieldError.invalid(path, fieldPath, 'must be a valid path'));
  return errs;
}

/** The rule as Go's json.Marshal prints the internal ValidationRule struct (no json tags). */
function goValidationRule(rule: ValidationRule): Record<string, unknown> {
  return {
    Rule: rule.rule ?? '',
    Message: rule.message ?? '',
    MessageExpression: rule.messageExpression ?? '',
    Reason: rule.reason ?? null,
    FieldPath: rule.fieldPath ?? '',
    OptionalOldSelf: rule.optionalOldSelf ?? null,
  };
}

/** Compilation results of a node's rules as CRD errors, and oldSelf where it cannot be correlated. */
function ruleCompileErrors(path: string, ctx: Context, node: NodeRules): FieldError[] {
  const vPath = childPath(path, 'x-kubernetes-validations');
  if (node.initError) return [new FieldError('InternalError', vPath, node.initError)];
  const errs: FieldError[] = [];
  node.rules.forEach((cr, i) => {
    const rp = indexPath(vPath, i);
    if (cr.error) errs.push(FieldError.invalid(childPath(rp, 'rule'), goValidationRule(cr.rule), cr.error));
    if (cr.messageError) errs.push(FieldError.invalid(childPath(rp, 'messageExpression'), goValidationRule(cr.rule), cr.messageError));
    if (cr.usesOldSelf && ctx.uncorrelatablePath !== undefined) {
      errs.push(FieldError.invalid(childPath(rp, 'rule'), cr.rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatablePath}`));
    } else if (!cr.usesOldSelf && cr.rule.optionalOldSelf !== undefined) {
      errs.push(FieldError.invalid(childPath(rp, 'optionalOldSelf'), cr.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
  return errs;
}

/** ValidateDefaults: each default must be pruned, and valid against the schema where it sits. */
function validateDefaults(root: JSONSchemaProps, path: string, rules: SchemaRules): FieldError[] {
  const errs: FieldError[] = [];
  const visit = (s: JSONSchemaProps, p: string, insideMeta: boolean, isRoot: boolean): void => {
    const embedded = isRoot || s['x-kubernetes-embedded-resource'] === true;
    const meta = embedded ? false : insideMeta;
    if (hasDefault(s)) errs.push(...defaultErrors(s, childPath(p, 'default'), meta, embedded, rules));
    const items = itemsSchema(s);
    if (items) visit(items, childPath(p, 'items'), meta, false);
    for (const [k, prop] of properties(s)) visit(prop, keyPath(childPath(p, 'properties'), k), meta || (embedded && META_FIELDS.has(k)), false);
  };
  visit(root, path, false, true);
  return errs;
}

/** The default of s (at path) is pruned, has valid embedded resources, fits the schema and its rules. */
function defaultErrors(s: JSONSchemaProps, path: string, insideMeta: boolean, isResourceRoot: boolean, rules: SchemaRules): FieldError[] {
  const value = s.default;
  // Defaults inside embedded metadata are checked against their own schema only.
  if (insideMeta) return validateOpenAPISchema(value, s, path);
  const errs: FieldError[] = [];
  const pruned = deepCopyJson(value);
  pruneWithSchema(pruned, s, isResourceRoot, false);
  if (!deepEqualJson(pruned, value)) errs.push(FieldError.invalid(path, value, 'must not have unknown fields'));
  const metaErrs = validateEmbeddedResources(value, isResourceRoot ? { ...s, 'x-kubernetes-embedded-resource': true } : s, path);
  if (metaErrs.length) return [...errs, ...metaErrs];
  const schemaErrs = validateOpenAPISchema(value, s, path);
  if (schemaErrs.length) return [...errs, ...schemaErrs];
  return [...errs, ...new CelRuleValidator(rules).validate(path, s, value, value).errors];
}

/**
 * The CRD schema rules other than structurality, for the schema at fieldPath (the openAPIV3Schema
 * itself). Errors come in kube's order: defaults, then schema rules, then CEL compilation errors.
 * The root-level checks that depend on the CRD (nullable at the root, the /status root restrictions)
 * are the caller's.
 */
export function validateCustomResourceDefinitionSchema(schema: JSONSchemaProps, fieldPath = DEFAULT_SCHEMA_PATH): FieldError[] {
  const errs: FieldError[] = [];
  let rules: SchemaRules | undefined;
  if (validateStructuralSchema(schema, fieldPath).length === 0) {
    const candidate = schemaRules(schema);
    const defaultErrs = validateDefaults(schema, fieldPath, candidate);
    errs.push(...defaultErrs);
    if (defaultErrs.length === 0) rules = candidate;
  }
  const ctx: Context = { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false, rules };
  const result = validateNode(schema, fieldPath, ctx, true);
  return [...errs, ...result.schema, ...result.cel];
}
