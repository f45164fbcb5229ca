import type { CustomResourceDefinition } from '../crd/crd.types';

export interface NamesVerdict {
  accepted: boolean;
  reason: 'NoConflicts' | 'PluralConflict' | 'SingularConflict' | 'ShortNamesConflict' | 'KindConflict' | 'ListKindConflict';
  message: string;
}

/**
 * kube's naming controller: a CRD's names may not collide with the accepted names of another CRD of the same
 * group (plural, singular, short names, kind, list kind).
 */
export function checkNames(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[]): NamesVerdict {
  const n = crd.spec.names;
  const taken = { plurals: new Set<string>(), singulars: new Set<string>(), shortNames: new Set<string>(), kinds: new Set<string>(), listKinds: new Set<string>() };
  for (const o of others) {
    if (o.metadata.name === crd.metadata.name || o.spec.group !== crd.spec.group) continue;
    const a = o.status?.acceptedNames;
    if (!a?.plural) continue;
    taken.plurals.add(a.plural);
    if (a.singular) taken.singulars.add(a.singular);
    (a.shortNames ?? []).forEach((s) => taken.shortNames.add(s));
    if (a.kind) taken.kinds.add(a.kind);
    if (a.listKind) taken.listKinds.add(a.listKind);
  }
  const inUse = (what: string) => `"${what}" is already in use`;
  if (taken.plurals.has(n.plural) || taken.singulars.has(n.plural)) return { accepted: false, reason: 'PluralConflict', message: inUse(n.plural) };
  const singular = n.singular ?? n.kind.toLowerCase();
  if (taken.singulars.has(singular) || taken.plurals.has(singular)) return { accepted: false, reason: 'SingularConflict', message: inUse(singular) };
  for (const s of n.shortNames ?? []) if (taken.shortNames.has(s)) return { accepted: false, reason: 'ShortNamesConflict', message: inUse(s) };
  if (taken.kinds.has(n.kind) || taken.listKinds.has(n.kind)) return { accepted: false, reason: 'KindConflict', message: inUse(n.kind) };
  const listKind = n.listKind ?? `${n.kind}List`;
  if (taken.listKinds.has(listKind) || taken.kinds.has(listKind)) return { accepted: false, reason: 'ListKindConflict', message: inUse(listKind) };
  return { accepted: true, reason: 'NoConflicts', message: 'no conflicts found' };
}
