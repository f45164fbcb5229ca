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

type Json = Record<string, unknown>;

/** Each record a field holds (undefined, null and non-objects skipped), e.g. the items of a list. */
const records = (value: unknown): Json[] => (Array.isArray(value) ? value : [value]).filter(isRecord);

/** SetDefaults_ObjectFieldSelector, wherever a fieldRef sits. */
function defaultFieldRef(holder: unknown): void {
  for (const ref of records(isRecord(holder) ? holder.fieldRef : undefined)) if (!ref.apiVersion) ref.apiVersion = 'v1';
}

/** SetDefaults_HTTPGetAction. */
function defaultHttpGet(handler: unknown): void {
  for (const get of records(isRecord(handler) ? handler.httpGet : undefined)) {
    if (!get.path) get.path = '/';
    if (!get.scheme) get.scheme = 'HTTP';
  }
}

/** SetDefaults_Probe and its handler's. */
function defaultProbe(probe: unknown): void {
  if (!isRecord(probe)) return;
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  defaultHttpGet(probe);
}

/** The 0644 kube gives secret, configMap, downwardAPI and projected volumes without a defaultMode. */
const DEFAULT_VOLUME_MODE = 0o644;

/** Declarative (+default) values of the in-tree volume sources (zz_generated.defaults.go). */
const VOLUME_SOURCE_DEFAULTS: Readonly<Record<string, Json>> = {
  hostPath: { type: '' },
  iscsi: { iscsiInterface: 'default' },
  rbd: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' },
  azureDisk: { cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' },
  scaleIO: { storageMode: 'ThinProvisioned', fsType: 'xfs' },
};

/** SetDefaults_Volume (a volume without a source is an emptyDir) and the defaults of its source. */
function defaultVolume(volume: Json): void {
  if (Object.entries(volume).every(([field, value]) => field === 'name' || value == null)) volume.emptyDir = {};
  for (const field of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    for (const source of records(volume[field])) if (source.defaultMode == null) source.defaultMode = DEFAULT_VOLUME_MODE;
  }
  for (const item of records(isRecord(volume.downwardAPI) ? volume.downwardAPI.items : undefined)) defaultFieldRef(item);
  for (const projection of records(isRecord(volume.projected) ? volume.projected.sources : undefined)) {
    for (const item of records(isRecord(projection.downwardAPI) ? projection.downwardAPI.items : undefined)) defaultFieldRef(item);
    for (const token of records(projection.serviceAccountToken)) if (token.expirationSeconds == null) token.expirationSeconds = 3600;
  }
  for (const [field, defaults] of Object.entries(VOLUME_SOURCE_DEFAULTS)) {
    for (const source of records(volume[field])) for (const [name, value] of Object.entries(defaults)) if (source[name] == null) source[name] = value;
  }
  // SetDefaults_PersistentVolumeClaimSpec of a generic ephemeral volume's claim template.
  const template = isRecord(volume.ephemeral) ? volume.ephemeral.volumeClaimTemplate : undefined;
  for (const spec of records(isRecord(template) ? template.spec : undefined)) if (spec.volumeMode == null) spec.volumeMode = 'Filesystem';
}

function defaultContainer(container: Container, hostNetwork: boolean): void {
  for (const env of records(container.env)) defaultFieldRef(env.valueFrom);
  for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) defaultProbe(probe);
  if (isRecord(container.lifecycle)) for (const hook of [container.lifecycle.postStart, container.lifecycle.preStop]) defaultHttpGet(hook);
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
  defaultEphemeralContainers(spec);
  for (const volume of records(spec.volumes)) defaultVolume(volume);
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
