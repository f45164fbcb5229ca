/**
 * cel.ValidFieldPath: the `fieldPath` of an x-kubernetes-validations rule, a JSON path of field and
 * map-key accessors (".spec.ports", ".labels['app.kubernetes.io/name']") that must exist in the schema.
 */
import type { JSONSchemaProps } from '@kube/apimachinery';
import { childPath, keyPath } from './field-path.format';
import { additionalPropertiesSchema, hasProperties } from './schema.props';

export type FieldPathResult = { ok: true; path: string; schema: JSONSchemaProps } | { ok: false; error: string };

/** Splits into '.', '[', ']', single-quoted strings and the names between them. */
function tokenize(jsonPath: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < jsonPath.length) {
    const c = jsonPath[i];
    if (c === '.' || c === '[' || c === ']') {
      tokens.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < jsonPath.length && !(jsonPath[j] === "'" && jsonPath[j - 1] !== '\\')) j++;
      tokens.push(jsonPath.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < jsonPath.length && !'.[]'.includes(jsonPath[j])) j++;
      tokens.push(jsonPath.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): string | undefined {
  let bad = false;
  const out = s.replace(/\\./g, (m) => {
    const r = ESCAPES[m[1]];
    if (r === undefined) bad = true;
    return r ?? '';
  });
  return bad ? undefined : out;
}

interface Cursor {
  path: string;
  schema: JSONSchemaProps;
}

/** Moves the cursor to `name`: a property when the object has properties, else a map key. */
function step(cur: Cursor, name: string): Cursor | string {
  if (hasProperties(cur.schema)) {
    const prop = cur.schema.properties?.[name];
    return prop ? { path: childPath(cur.path, name), schema: prop } : 'does not refer to a valid field';
  }
  const ap = additionalPropertiesSchema(cur.schema);
  if (cur.schema.additionalProperties !== undefined && ap) return { path: keyPath(cur.path, name), schema: ap };
  return 'does not refer to a valid field';
}

export function validFieldPath(jsonPath: string, schema: JSONSchemaProps): FieldPathResult {
  const tokens = tokenize(jsonPath);
  let cur: Cursor = { path: '', schema };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    let name: string;
    if (tok === '[') {
      const quoted = tokens[++i];
      if (quoted === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { ok: false, error: `expected single quoted string but got ${quoted}` };
      const unescaped = unescapeSingleQuote(quoted.slice(1, -1));
      if (unescaped === undefined) return { ok: false, error: 'invalid string literal' };
      name = unescaped;
      const close = tokens[i + 1];
      if (close === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      if (close !== ']') return { ok: false, error: `expected ] but got ${close}` };
      i++;
    } else if (tok === '.') {
      const next = tokens[++i];
      if (next === undefined) return { ok: false, error: 'unexpected end of JSON path' };
      name = next;
    } else {
      return { ok: false, error: `expected [ or . but got: ${tok}` };
    }
    const moved = step(cur, name);
    if (typeof moved === 'string') return { ok: false, error: moved };
    cur = moved;
  }
  return { ok: true, path: cur.path, schema: cur.schema };
}
