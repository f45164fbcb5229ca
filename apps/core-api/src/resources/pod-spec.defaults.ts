/** SetDefaults_PodSpec / SetDefaults_Container (pkg/apis/core/v1/defaults.go), for pods and pod templates alike. */
import { canonicalizeResourceList } from '@kube/admission';
import { Errors, QUANTITY_FORMAT_ERROR } from '@kube/apimachinery';
import { ensureRecord, isRecord, listOf } from './validation.helpers';
import { allContainers, type Container, type PodSpec, type PodTemplateSpec } from './pod-spec.types';

/** parsers.ParseImageName's tag: an explicit tag, none for a bare digest, else "latest". */
export function imageTag(image: string): string | undefined {
  const [name, digest] = image.split('@');
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) return name.slice(colon + 1);
  return digest === undefined ? 'latest' : undefined;
}

function defaultContainer(container: Container, hostNetwork: boolean): void {
  if (!container.imagePullPolicy) container.imagePullPolicy = imageTag(String(container.image ?? '')) === 'latest' ? 'Always' : 'IfNotPresent';
  if (!container.terminationMessagePath) container.terminationMessagePath = '/dev/termination-log';
  if (!container.terminationMessagePolicy) container.terminationMessagePolicy = 'File';
  for (const port of listOf(container.ports)) {
    if (!port.protocol) port.protocol = 'TCP';
    if (hostNetwork && !port.hostPort && port.containerPort) port.hostPort = port.containerPort;
  }
  canonicalizeResources(container);
}

/** SetDefaults_EphemeralContainer: a container's defaults (kube decodes, and so defaults, the whole pod of a write to pods/ephemeralcontainers). */
export function defaultEphemeralContainers(spec: PodSpec): void {
  for (const c of listOf(spec.ephemeralContainers)) if (isRecord(c)) defaultContainer(c, false);
}

/** Quantities come back in canonical form (`0.5` → `500m`), as kube's decoding and encoding of a Quantity does. */
function canonicalizeResources(container: Container): void {
  const resources = container.resources;
  if (!isRecord(resources)) return;
  if (!canonicalizeResourceList(resources.limits) || !canonicalizeResourceList(resources.requests)) {
    throw Errors.badRequest(`Pod in version "v1" cannot be handled as a Pod: ${QUANTITY_FORMAT_ERROR}`);
  }
}

/** SetDefaults_Pod: requests default to limits. */
function defaultRequestsToLimits(container: Container): void {
  const limits = container.resources?.limits;
  if (!isRecord(limits) || !container.resources) return;
  const requests = { ...container.resources.requests };
  for (const [name, value] of Object.entries(limits)) if (!(name in requests)) requests[name] = value;
  container.resources.requests = requests;
}

export function defaultPodSpec(spec: PodSpec): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!isRecord(spec.securityContext)) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds == null) spec.terminationGracePeriodSeconds = 30;
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
  // v1 conversion: the deprecated serviceAccount mirrors serviceAccountName.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  for (const c of allContainers(spec)) if (isRecord(c)) defaultContainer(c, spec.hostNetwork === true);
}

/** SetDefaults_Pod then the pod spec's: a pod's (not a template's) containers request what they limit. */
export function defaultPod(spec: PodSpec): void {
  defaultPodSpec(spec);
  for (const c of allContainers(spec)) if (isRecord(c)) defaultRequestsToLimits(c);
}

/** A workload's spec.template: the pod spec defaults (kube runs them on every embedded PodTemplateSpec). */
export function defaultPodTemplate(template: PodTemplateSpec | undefined): void {
  if (isRecord(template)) defaultPodSpec(ensureRecord<PodSpec>(template as Record<string, unknown>, 'spec'));
}
