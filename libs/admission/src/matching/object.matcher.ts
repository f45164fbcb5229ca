/**
 * The per-object half of matching, shared by webhooks and policies (kube's predicates/namespace and
 * predicates/object): namespaceSelector against the namespace's labels, objectSelector against the object's.
 */
import { LabelSelector, labelSelectorFromMetav1, type KubeObject, type MetaV1LabelSelector } from '@kube/apimachinery';
import type { AdmissionAttributes } from '../admission.types';
import type { AdmissionSources } from '../configuration/admission.sources';

/** A parsed selector, or undefined for the empty one (which matches everything and costs nothing). */
export function selectorOf(sel: MetaV1LabelSelector | undefined): LabelSelector | undefined {
  if (!sel) return undefined;
  try {
    const selector = labelSelectorFromMetav1(sel);
    return selector.empty ? undefined : selector;
  } catch {
    // validation refuses such selectors; one stored anyway selects nothing
    return LabelSelector.nothing();
  }
}

function isNamespace(a: AdmissionAttributes): boolean {
  return a.resource.group === '' && a.resource.plural === 'namespaces';
}

/** The namespace object of a namespaced request (the object itself for a Namespace), for selectors and CEL. */
export async function namespaceObject(a: AdmissionAttributes, sources: AdmissionSources): Promise<KubeObject | undefined> {
  if (isNamespace(a)) return a.object ?? a.oldObject;
  if (!a.namespace) return undefined;
  return sources.namespace(a.namespace);
}

/** A cluster-scoped request other than a Namespace is never exempted by a namespaceSelector. */
export async function matchesNamespaceSelector(selector: LabelSelector | undefined, a: AdmissionAttributes, sources: AdmissionSources): Promise<boolean> {
  if (!selector) return true;
  if (!a.namespace && !isNamespace(a)) return true;
  const ns = await namespaceObject(a, sources);
  return selector.matches(ns?.metadata.labels ?? {});
}

/** The new or the old object's labels match (either suffices, as kube's object matcher). */
export function matchesObjectSelector(selector: LabelSelector | undefined, a: AdmissionAttributes): boolean {
  if (!selector) return true;
  return (!!a.object && selector.matches(a.object.metadata.labels ?? {})) || (!!a.oldObject && selector.matches(a.oldObject.metadata.labels ?? {}));
}
