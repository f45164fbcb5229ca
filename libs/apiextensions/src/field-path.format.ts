/**
 * field.Path rendering (k8s.io/apimachinery/pkg/util/validation/field): "spec.ports[0].name",
 * "properties[spec].items". A path is kept as its rendered string; '' is the root.
 */

/** How Go prints a nil *field.Path; kube reports root-level schema and rule errors under it. */
export const NIL_PATH = '<nil>';

export function childPath(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

export function keyPath(path: string, key: string): string {
  return `${path}[${key}]`;
}

export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}

/** The path an error at `path` is reported under: the root renders as "<nil>". */
export function reportedPath(path: string): string {
  return path || NIL_PATH;
}
