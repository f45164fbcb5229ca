/**
 * Bad values as kube's field.Error prints structs and maps: with Go's `%#v` (`map[string]string{"app":"web"}`,
 * `v1.LabelSelector{MatchLabels:…}`), which clients see in 422 messages such as
 * "`selector` does not match template `labels`".
 */
import type { MetaV1LabelSelector } from './label-selector';

/** A value already formatted as Go prints it; FieldError shows its text as is. */
export class GoLiteral {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

const goString = (s: string): string => JSON.stringify(s);

/** `%#v` of a map[string]string: keys sorted, nil for an absent map. */
export function goStringMap(map: Record<string, string> | undefined | null): string {
  if (!map) return 'map[string]string(nil)';
  const keys = Object.keys(map).sort();
  return `map[string]string{${keys.map((k) => `${goString(k)}:${goString(String(map[k]))}`).join(', ')}}`;
}

function goStringSlice(values: readonly string[] | undefined): string {
  return values ? `[]string{${values.map(goString).join(', ')}}` : '[]string(nil)';
}

/** `%#v` of a metav1.LabelSelector (a nil pointer prints as "null", as field.Error does). */
export function goLabelSelector(sel: MetaV1LabelSelector | undefined | null): GoLiteral {
  if (!sel) return new GoLiteral('null');
  const exprs = sel.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${sel.matchExpressions
        .map((e) => `v1.LabelSelectorRequirement{Key:${goString(e.key ?? '')}, Operator:${goString(e.operator ?? '')}, Values:${goStringSlice(e.values)}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoLiteral(`v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${exprs}}`);
}

/** A map[string]string bad value (template labels, node selectors). */
export function goLabels(map: Record<string, string> | undefined | null): GoLiteral {
  return new GoLiteral(goStringMap(map));
}
