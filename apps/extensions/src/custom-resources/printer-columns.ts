import { humanAge, type KubeObject } from '@kube/apimachinery';
import type { TableColumn } from '@kube/apiserver';
import { JsonPath } from '@kube/jsonpath';
import type { CustomResourceColumnDefinition } from '../crd/crd.types';

/**
 * kube's CRD table convertor (apiextensions-apiserver registry/customresource/tableconvertor): each column's
 * JSONPath is parsed as `{<jsonPath>}` with missing keys allowed. A column kube's parser rejects ends the
 * list there, columns before it still print (kube logs "invalid printer specification" and serves the
 * convertor built so far); CRD validation only checks the leading dot, so such a CRD is still served.
 */
export function printerColumns(columns: readonly CustomResourceColumnDefinition[]): TableColumn[] {
  const out: TableColumn[] = [];
  for (const c of columns) {
    let path: JsonPath;
    try {
      path = JsonPath.parse(`{${c.jsonPath}}`, c.name).allowMissingKeys(true);
    } catch {
      break;
    }
    out.push({
      name: c.name,
      type: c.type as TableColumn['type'],
      format: c.format,
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
      cell: (obj: KubeObject) => cell(path, c.type, obj),
    });
  }
  return out;
}

/** The first value of the first result, as kube prints it; nothing (`<none>` in kubectl) when there is none. */
function cell(path: JsonPath, type: string, obj: KubeObject): unknown {
  let results: unknown[][];
  try {
    results = path.findResults(obj);
  } catch {
    return null;
  }
  if (!results.length || !results[0].length) return null;
  const value = results[0][0];
  // A string column prints the value as `kubectl -o jsonpath` would (objects as JSON); a JSON null is
  // Go's invalid reflect.Value there, which text/template prints as "<no value>".
  if (type === 'string') return value === null ? '<no value>' : path.printResults([value]);
  return cellForJSONValue(type, value);
}

/** kube's cellForJSONValue: the value when it has the column's type, else nothing. */
function cellForJSONValue(type: string, value: unknown): unknown {
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      return RFC3339.test(value) && !Number.isNaN(Date.parse(value)) ? humanAge(value, Date.now()) : '<invalid>';
    default:
      return null;
  }
}

/** metav1.Time.UnmarshalQueryParameter: time.RFC3339. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
