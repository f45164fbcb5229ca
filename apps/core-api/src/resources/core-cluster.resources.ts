/**
 * The remaining core/v1 kinds: Node, PersistentVolume, PersistentVolumeClaim, ReplicationController and
 * PodTemplate, with kube's defaults (pkg/apis/core/v1/defaults.go), the main rules of
 * pkg/apis/core/validation and the printers. Stored objects only: no kubelet, volume or replication controller.
 */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import { scaleSubresource, statusSubresource, type ResourceDefinition, type TableColumn } from '@kube/apiserver';
import { column } from './cluster.helpers';
import { defaultPodTemplate } from './pod-spec.defaults';
import type { PodTemplateSpec } from './pod-spec.types';
import { validatePodTemplateSpec } from './pod-spec.validation';
import { SELECTOR_MISMATCH, validateRestartAlways } from './workload.validation';
import { ageColumn, formatLabels, NONE } from './table.helpers';
import { child, entriesOf, index, isRecord, listOf, semanticEqual, validateEnum, type StringMap } from './validation.helpers';
import { fieldLabelNotSupported } from './field-labels';

// ---------------------------------------------------------------------------
// Pod templates (shared by ReplicationController and PodTemplate)
// ---------------------------------------------------------------------------

function containersOf(template: PodTemplateSpec | undefined): { names: string; images: string } {
  const containers = listOf(template?.spec?.containers);
  return { names: containers.map((c) => c.name ?? '').join(','), images: containers.map((c) => String(c.image ?? '')).join(',') };
}

// ---------------------------------------------------------------------------
// Node
// ---------------------------------------------------------------------------

export interface Node extends KubeObject {
  spec?: { unschedulable?: boolean; taints?: { key?: string; value?: string; effect?: string }[]; podCIDR?: string; podCIDRs?: string[] };
  status?: {
    conditions?: { type?: string; status?: string }[];
    addresses?: { type?: string; address?: string }[];
    nodeInfo?: { kubeletVersion?: string; osImage?: string; kernelVersion?: string; containerRuntimeVersion?: string };
  };
}

const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];
const ROLE_PREFIX = 'node-role.kubernetes.io/';

export function validateNode(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  listOf(node.spec?.taints).forEach((t, i) => {
    const path = index('spec.taints', i);
    if (!t.key) errs.push(FieldError.required(child(path, 'key')));
    if (!t.effect) errs.push(FieldError.required(child(path, 'effect')));
    else errs.push(...validateEnum(t.effect, child(path, 'effect'), TAINT_EFFECTS));
  });
  return errs;
}

function nodeStatus(node: Node): string {
  const ready = listOf(node.status?.conditions).find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(node: Node): string {
  const roles = new Set<string>();
  for (const [k, v] of entriesOf(node.metadata.labels)) {
    if (k.startsWith(ROLE_PREFIX) && k.length > ROLE_PREFIX.length) roles.add(k.slice(ROLE_PREFIX.length));
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : NONE;
}

function nodeAddress(node: Node, type: string): string {
  return listOf(node.status?.addresses).find((a) => a.type === type)?.address ?? NONE;
}

export const nodesResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  singular: 'node',
  shortNames: ['no'],
  namespaced: false,
  subresources: { status: statusSubresource() },
  strategy: {
    allowCreateOnUpdate: false,
    validate: (obj) => validateNode(obj as Node),
    fields: (obj) => ({ 'spec.unschedulable': String((obj as Node).spec?.unschedulable ?? false) }),
    unknownFieldLabel: fieldLabelNotSupported,
  },
  tableColumns: [
    column<Node>('Status', 'string', 'The status of the node', nodeStatus),
    column<Node>('Roles', 'string', 'The roles of the node', nodeRoles),
    ageColumn,
    column<Node>('Version', 'string', 'Kubelet Version reported by the node.', (n) => n.status?.nodeInfo?.kubeletVersion ?? ''),
    column<Node>('Internal-IP', 'string', 'List of addresses reachable to the node.', (n) => nodeAddress(n, 'InternalIP'), 1),
    column<Node>('External-IP', 'string', 'List of addresses reachable to the node.', (n) => nodeAddress(n, 'ExternalIP'), 1),
    column<Node>('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', (n) => n.status?.nodeInfo?.osImage || '<unknown>', 1),
    column<Node>('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", (n) => n.status?.nodeInfo?.kernelVersion || '<unknown>', 1),
    column<Node>('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', (n) => n.status?.nodeInfo?.containerRuntimeVersion || '<unknown>', 1),
  ],
};

// ---------------------------------------------------------------------------
// PersistentVolume and PersistentVolumeClaim
// ---------------------------------------------------------------------------

const ACCESS_MODES: Readonly<Record<string, string>> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
const VOLUME_MODES = ['Block', 'Filesystem'];

/** GetAccessModesAsString. */
function accessModes(modes: readonly string[] | undefined): string {
  return Object.entries(ACCESS_MODES)
    .filter(([mode]) => listOf(modes).includes(mode))
    .map(([, short]) => short)
    .join(',');
}

function validateAccessModes(modes: readonly string[] | undefined, path: string): FieldError[] {
  const list = listOf(modes);
  if (list.length === 0) return [FieldError.required(path, 'at least 1 access mode is required')];
  return list.filter((m) => !(m in ACCESS_MODES)).map((m) => FieldError.notSupported(path, m, Object.keys(ACCESS_MODES)));
}

/** The persistent volume sources of a PersistentVolumeSpec (one must be set). */
const PV_SOURCES = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'csi', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'glusterfs',
  'hostPath', 'iscsi', 'local', 'nfs', 'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
];

export interface PersistentVolume extends KubeObject {
  spec?: {
    capacity?: Record<string, string>;
    accessModes?: string[];
    persistentVolumeReclaimPolicy?: string;
    claimRef?: { namespace?: string; name?: string } | null;
    storageClassName?: string;
    volumeAttributesClassName?: string;
    volumeMode?: string;
    [source: string]: unknown;
  };
  status?: { phase?: string; reason?: string };
}

/** ValidatePersistentVolume (the source, capacity and access modes). */
export function validatePersistentVolume(pv: PersistentVolume): FieldError[] {
  const spec = pv.spec ?? {};
  const errs = validateAccessModes(spec.accessModes, 'spec.accessModes');
  if (!isRecord(spec.capacity) || Object.keys(spec.capacity).length === 0) errs.push(FieldError.required('spec.capacity'));
  else if (!('storage' in spec.capacity) || Object.keys(spec.capacity).length > 1) errs.push(FieldError.notSupported('spec.capacity', Object.keys(spec.capacity), ['storage']));
  const sources = PV_SOURCES.filter((s) => spec[s] != null);
  if (sources.length === 0) errs.push(FieldError.required('spec', 'must specify a volume type'));
  else if (sources.length > 1) errs.push(FieldError.forbidden(`spec.${sources[1]}`, 'may not specify more than 1 volume type'));
  errs.push(...validateEnum(spec.persistentVolumeReclaimPolicy, 'spec.persistentVolumeReclaimPolicy', ['Delete', 'Recycle', 'Retain']));
  if (spec.volumeMode !== undefined) errs.push(...validateEnum(spec.volumeMode, 'spec.volumeMode', VOLUME_MODES));
  return errs;
}

export const persistentVolumesResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  singular: 'persistentvolume',
  shortNames: ['pv'],
  namespaced: false,
  subresources: { status: statusSubresource() },
  strategy: {
    allowCreateOnUpdate: false,
    // SetDefaults_PersistentVolume.
    default: (obj) => {
      const spec = ((obj as PersistentVolume).spec ??= {});
      spec.persistentVolumeReclaimPolicy ??= 'Retain';
      spec.volumeMode ??= 'Filesystem';
    },
    prepareForCreate: (obj) => {
      (obj as PersistentVolume).status = { phase: 'Pending' };
    },
    validate: (obj) => validatePersistentVolume(obj as PersistentVolume),
    validateUpdate: (obj, old) => {
      const errs = validatePersistentVolume(obj as PersistentVolume);
      const [spec, prev] = [(obj as PersistentVolume).spec ?? {}, (old as PersistentVolume).spec ?? {}];
      const changedSource = PV_SOURCES.find((s) => !semanticEqual(spec[s], prev[s]));
      if (changedSource) errs.push(FieldError.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
      if (spec.volumeMode !== prev.volumeMode) errs.push(FieldError.invalid('spec.volumeMode', spec.volumeMode, 'field is immutable'));
      return errs;
    },
  },
  tableColumns: [
    column<PersistentVolume>('Capacity', 'string', 'capacity is the description of the persistent volume\'s resources and capacity.', (pv) => pv.spec?.capacity?.storage ?? ''),
    column<PersistentVolume>('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.', (pv) => accessModes(pv.spec?.accessModes)),
    column<PersistentVolume>('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.', (pv) => pv.spec?.persistentVolumeReclaimPolicy ?? ''),
    column<PersistentVolume>('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim.', (pv) => pv.status?.phase ?? ''),
    column<PersistentVolume>('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.', (pv) => (pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '')),
    column<PersistentVolume>('StorageClass', 'string', 'StorageClass of the pv', (pv) => pv.spec?.storageClassName ?? ''),
    column<PersistentVolume>('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv', (pv) => pv.spec?.volumeAttributesClassName || '<unset>'),
    column<PersistentVolume>('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.', (pv) => pv.status?.reason ?? ''),
    ageColumn,
    column<PersistentVolume>('VolumeMode', 'string', 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.', (pv) => pv.spec?.volumeMode ?? 'Filesystem', 1),
  ],
};

export interface PersistentVolumeClaim extends KubeObject {
  spec?: {
    accessModes?: string[];
    resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
    volumeName?: string;
    storageClassName?: string;
    volumeAttributesClassName?: string;
    volumeMode?: string;
    selector?: unknown;
  };
  status?: { phase?: string; capacity?: Record<string, string>; accessModes?: string[] };
}

/** ValidatePersistentVolumeClaimSpec (access modes, the storage request, volume mode). */
export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  const spec = pvc.spec ?? {};
  const errs = validateAccessModes(spec.accessModes, 'spec.accessModes');
  if (!spec.resources?.requests?.storage) errs.push(FieldError.required('spec.resources[storage]'));
  if (spec.volumeMode !== undefined) errs.push(...validateEnum(spec.volumeMode, 'spec.volumeMode', VOLUME_MODES));
  return errs;
}

export const persistentVolumeClaimsResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  namespaced: true,
  subresources: { status: statusSubresource() },
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => {
      ((obj as PersistentVolumeClaim).spec ??= {}).volumeMode ??= 'Filesystem';
    },
    prepareForCreate: (obj) => {
      (obj as PersistentVolumeClaim).status = { phase: 'Pending' };
    },
    validate: (obj) => validatePersistentVolumeClaim(obj as PersistentVolumeClaim),
    validateUpdate: (obj, old) => {
      const errs = validatePersistentVolumeClaim(obj as PersistentVolumeClaim);
      const [spec, prev] = [(obj as PersistentVolumeClaim).spec ?? {}, (old as PersistentVolumeClaim).spec ?? {}];
      // Only resources.requests (expansion) and volumeAttributesClassName may change once created.
      const frozen = (s: PersistentVolumeClaim['spec'] & object) => ({ ...s, resources: { ...s.resources, requests: undefined }, volumeAttributesClassName: undefined, volumeName: prev.volumeName ? s.volumeName : undefined });
      if (!semanticEqual(frozen(spec), frozen(prev))) {
        errs.push(FieldError.forbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
      }
      return errs;
    },
  },
  tableColumns: [
    column<PersistentVolumeClaim>('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.', (pvc) => pvc.status?.phase ?? ''),
    column<PersistentVolumeClaim>('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.', (pvc) => pvc.spec?.volumeName ?? ''),
    column<PersistentVolumeClaim>('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.', (pvc) => (pvc.spec?.volumeName ? (pvc.status?.capacity?.storage ?? '') : '')),
    column<PersistentVolumeClaim>('Access Modes', 'string', 'accessModes contains the actual access modes the volume backing the PVC has.', (pvc) => (pvc.spec?.volumeName ? accessModes(pvc.status?.accessModes) : '')),
    column<PersistentVolumeClaim>('StorageClass', 'string', 'StorageClass of the pvc', (pvc) => pvc.spec?.storageClassName ?? ''),
    column<PersistentVolumeClaim>('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc', (pvc) => pvc.spec?.volumeAttributesClassName || '<unset>'),
    ageColumn,
    column<PersistentVolumeClaim>('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim.', (pvc) => pvc.spec?.volumeMode ?? 'Filesystem', 1),
  ],
};

// ---------------------------------------------------------------------------
// ReplicationController
// ---------------------------------------------------------------------------

export interface ReplicationController extends KubeObject {
  spec?: { replicas?: number; minReadySeconds?: number; selector?: StringMap; template?: PodTemplateSpec };
  status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number; observedGeneration?: number };
}

/** SetDefaults_ReplicationController: selector and labels from the template's labels, one replica. */
export function defaultReplicationController(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels && Object.keys(labels).length) {
    if (!spec.selector || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    if (!rc.metadata.labels || Object.keys(rc.metadata.labels).length === 0) rc.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  defaultPodTemplate(spec.template);
}

/** ValidateReplicationControllerSpec. */
export function validateReplicationController(rc: ReplicationController): FieldError[] {
  const spec = rc.spec ?? {};
  const errs: FieldError[] = [];
  if ((spec.minReadySeconds ?? 0) < 0) errs.push(FieldError.invalid('spec.minReadySeconds', spec.minReadySeconds, 'must be greater than or equal to 0'));
  if ((spec.replicas ?? 0) < 0) errs.push(FieldError.invalid('spec.replicas', spec.replicas, 'must be greater than or equal to 0'));
  const selector = spec.selector ?? {};
  if (Object.keys(selector).length === 0) errs.push(FieldError.required('spec.selector'));
  const template = spec.template;
  if (!template || typeof template !== 'object') {
    errs.push(FieldError.required('spec.template'));
    return errs;
  }
  const labels = template.metadata?.labels ?? {};
  if (Object.keys(selector).length && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
    errs.push(FieldError.invalid('spec.template.metadata.labels', labels, SELECTOR_MISMATCH));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'), ...validateRestartAlways(template, 'spec.template', 'ReplicationController'));
  return errs;
}

const TEMPLATE_COLUMNS = (get: (obj: KubeObject) => PodTemplateSpec | undefined): TableColumn[] => [
  column('Containers', 'string', 'Names of each container in the template.', (o) => containersOf(get(o)).names, 1),
  column('Images', 'string', 'Images referenced by each container in the template.', (o) => containersOf(get(o)).images, 1),
];

export const replicationControllersResource: ResourceDefinition = {
  tracksGeneration: true,
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  singular: 'replicationcontroller',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  subresources: {
    status: statusSubresource(),
    scale: scaleSubresource({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' }),
  },
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => defaultReplicationController(obj as ReplicationController),
    prepareForCreate: (obj) => {
      (obj as ReplicationController).status = { replicas: 0 };
    },
    validate: (obj) => validateReplicationController(obj as ReplicationController),
    fields: (obj) => ({ 'status.replicas': String((obj as ReplicationController).status?.replicas ?? 0) }),
    unknownFieldLabel: fieldLabelNotSupported,
  },
  tableColumns: [
    column<ReplicationController>('Desired', 'integer', 'Replicas is the number of desired replicas.', (rc) => rc.spec?.replicas ?? 0),
    column<ReplicationController>('Current', 'integer', 'Replicas is the most recently observed number of replicas.', (rc) => rc.status?.replicas ?? 0),
    column<ReplicationController>('Ready', 'integer', 'The number of ready replicas for this replication controller.', (rc) => rc.status?.readyReplicas ?? 0),
    ageColumn,
    ...TEMPLATE_COLUMNS((o) => (o as ReplicationController).spec?.template),
    column<ReplicationController>('Selector', 'string', 'Selector is a label query over pods that should match the Replicas count.', (rc) => formatLabels(rc.spec?.selector), 1),
  ],
};

// ---------------------------------------------------------------------------
// PodTemplate
// ---------------------------------------------------------------------------

export interface PodTemplate extends KubeObject {
  template?: PodTemplateSpec;
}

export const podTemplatesResource: ResourceDefinition = {
  tracksGeneration: true,
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  plural: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => defaultPodTemplate((obj as PodTemplate).template),
    validate: (obj) => {
      const template = (obj as PodTemplate).template;
      return template ? validatePodTemplateSpec(template, 'template') : [FieldError.required('template')];
    },
  },
  tableColumns: [
    column<PodTemplate>('Containers', 'string', 'Names of each container in the template.', (pt) => containersOf(pt.template).names),
    column<PodTemplate>('Images', 'string', 'Images referenced by each container in the template.', (pt) => containersOf(pt.template).images),
    column<PodTemplate>('Pod Labels', 'string', 'The labels for the pod template.', (pt) => formatLabels(pt.template?.metadata?.labels)),
  ],
};

export const coreClusterResources: ResourceDefinition[] = [nodesResource, persistentVolumesResource, persistentVolumeClaimsResource, replicationControllersResource, podTemplatesResource];
