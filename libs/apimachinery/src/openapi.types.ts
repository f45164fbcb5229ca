/**
 * OpenAPI v3 schema objects as Kubernetes uses them (JSONSchemaProps plus the x-kubernetes-* extensions).
 * Built-in types reference each other with $ref "#/components/schemas/<name>" (v3 form); names are kube's
 * fully qualified definition names, e.g. "io.k8s.api.core.v1.ConfigMap".
 */
export interface JSONSchemaProps {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  uniqueItems?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-merge-key'?: string;
  /** Comma-separated: "merge", "retainKeys", "replace". */
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
  'x-kubernetes-validations'?: Array<{ rule: string; message?: string; messageExpression?: string; reason?: string; fieldPath?: string }>;
  [extension: `x-${string}`]: unknown;
}

/** Named schemas, the `components.schemas` of an OpenAPI v3 document. */
export type SchemaComponents = Record<string, JSONSchemaProps>;

/** Resolves "#/components/schemas/X" (or "#/definitions/X") and single-element allOf wrappers. */
export function resolveSchema(schema: JSONSchemaProps | undefined, components: SchemaComponents): JSONSchemaProps | undefined {
  let s = schema;
  for (let hops = 0; s && hops < 32; hops++) {
    if (s.$ref) {
      const name = s.$ref.slice(s.$ref.lastIndexOf('/') + 1);
      s = components[name];
      continue;
    }
    if (s.allOf && s.allOf.length === 1 && !s.properties && !s.type) {
      s = s.allOf[0];
      continue;
    }
    return s;
  }
  return s;
}
