/**
 * storage.k8s.io/v1 StorageClass, CSIDriver, CSINode and VolumeAttachment: kube's defaults
 * (pkg/apis/storage/v1/defaults.go), the main rules of pkg/apis/storage/validation and the printers. No
 * provisioner, attacher or CSI driver acts on them.
 */
import { FieldError, isDNS1123Subdomain, type KubeObject } from '@kube/apimachinery';
import { statusSubresource, type ResourceDefinition } from '@kube/apiserver';
import { column } from './cluster.helpers';
import { NONE } from './table.helpers';
import { child, index, invalidEach, listOf, semanticEqual, validateEnum, validateImmutableField, validateQualifiedName } from './validation.helpers';

const GROUP = 'storage.k8s.io';
/** kube's CSI driver name rule (ValidateCSIDriverName). */
const MAX_DRIVER_NAME = 63;

function validateDriverName(name: string | undefined, path: string): FieldError[] {
  if (!name) return [FieldError.required(path)];
  const errs: FieldError[] = [];
  if (name.length > MAX_DRIVER_NAME) errs.push(FieldError.tooLong(path, name, MAX_DRIVER_NAME));
  errs.push(...invalidEach(path, name, isDNS1123Subdomain(name.toLowerCase())));
  return errs;
}

// ---- StorageClass ----

export interface StorageClass extends KubeObject {
  provisioner?: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: string;
  volumeBindingMode?: string;
  allowVolumeExpansion?: boolean;
}

export const storageClassesResource: ResourceDefinition = {
  group: GROUP,
  version: 'v1',
  kind: 'StorageClass',
  plural: 'storageclasses',
  singular: 'storageclass',
  shortNames: ['sc'],
  namespaced: false,
  strategy: {
    allowCreateOnUpdate: false,
    default: (obj) => {
      const sc = obj as StorageClass;
      sc.reclaimPolicy ??= 'Delete';
      sc.volumeBindingMode ??= 'Immediate';
    },
    validate: (obj) => {
      const sc = obj as StorageClass;
      // validateProvisioner: a qualified name of at most 63 characters.
      const errs = sc.provisioner ? validateQualifiedName(sc.provisioner.toLowerCase(), 'provisioner') : [FieldError.required('provisioner')];
      errs.push(...validateEnum(sc.reclaimPolicy, 'reclaimPolicy', ['Delete', 'Retain']));
      errs.push(...validateEnum(sc.volumeBindingMode, 'volumeBindingMode', ['Immediate', 'WaitForFirstConsumer']));
      return errs;
    },
    validateUpdate: (obj, old) => {
      const [sc, prev] = [obj as StorageClass, old as StorageClass];
      const errs: FieldError[] = [];
      if (!semanticEqual(sc.parameters, prev.parameters)) errs.push(FieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
      if (sc.provisioner !== prev.provisioner) errs.push(FieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
      if (sc.reclaimPolicy !== prev.reclaimPolicy) errs.push(FieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
      errs.push(...validateImmutableField(sc.volumeBindingMode, prev.volumeBindingMode, 'volumeBindingMode'));
      return errs;
    },
  },
  tableColumns: [
    column<StorageClass>('Provisioner', 'string', 'provisioner indicates the type of the provisioner.', (sc) => sc.provisioner ?? ''),
    column<StorageClass>('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.', (sc) => sc.reclaimPolicy ?? 'Delete'),
    column<StorageClass>('VolumeBindingMode', 'string', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.', (sc) => sc.volumeBindingMode ?? 'Immediate'),
    column<StorageClass>('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.', (sc) => String(sc.allowVolumeExpansion ?? false)),
  ],
};

// ---- CSIDriver ----

export interface CSIDriver extends KubeObject {
  spec?: {
    attachRequired?: boolean;
    podInfoOnMount?: boolean;
    storageCapacity?: boolean;
    fsGroupPolicy?: string;
    requiresRepublish?: boolean;
    seLinuxMount?: boolean;
    volumeLifecycleModes?: string[];
    tokenRequests?: { audience?: string; expirationSeconds?: number }[];
  };
}

export const csiDriversResource: ResourceDefinition = {
  group: GROUP,
  version: 'v1',
  kind: 'CSIDriver',
  plural: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  strategy: {
    allowCreateOnUpdate: false,
    // SetDefaults_CSIDriver.
    default: (obj) => {
      const spec = ((obj as CSIDriver).spec ??= {});
      spec.attachRequired ??= true;
      spec.podInfoOnMount ??= false;
      spec.storageCapacity ??= false;
      spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
      spec.requiresRepublish ??= false;
      spec.seLinuxMount ??= false;
      if (!listOf(spec.volumeLifecycleModes).length) spec.volumeLifecycleModes = ['Persistent'];
    },
    validate: (obj) => {
      const d = obj as CSIDriver;
      const spec = d.spec ?? {};
      const errs = validateDriverName(d.metadata.name, 'name');
      if (spec.attachRequired === undefined) errs.push(FieldError.required('spec.attachRequired'));
      if (spec.podInfoOnMount === undefined) errs.push(FieldError.required('spec.podInfoOnMount'));
      errs.push(...validateEnum(spec.fsGroupPolicy, 'spec.fsGroupPolicy', ['File', 'None', 'ReadWriteOnceWithFSType']));
      listOf(spec.volumeLifecycleModes).forEach((m, i) => errs.push(...validateEnum(m, index('spec.volumeLifecycleModes', i), ['Ephemeral', 'Persistent'])));
      return errs;
    },
    validateUpdate: (obj, old) => {
      const [spec, prev] = [(obj as CSIDriver).spec ?? {}, (old as CSIDriver).spec ?? {}];
      return [
        ...validateImmutableField(spec.attachRequired, prev.attachRequired, 'spec.attachRequired'),
        ...validateImmutableField(spec.fsGroupPolicy, prev.fsGroupPolicy, 'spec.fsGroupPolicy'),
        ...validateImmutableField(spec.volumeLifecycleModes, prev.volumeLifecycleModes, 'spec.volumeLifecycleModes'),
      ];
    },
  },
  tableColumns: [
    column<CSIDriver>('AttachRequired', 'boolean', 'attachRequired indicates this CSI volume driver requires an attach operation.', (d) => d.spec?.attachRequired ?? true),
    column<CSIDriver>('PodInfoOnMount', 'boolean', 'podInfoOnMount indicates this CSI volume driver requires additional pod information during mount operations.', (d) => d.spec?.podInfoOnMount ?? false),
    column<CSIDriver>('StorageCapacity', 'boolean', 'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity.', (d) => d.spec?.storageCapacity ?? false),
    column<CSIDriver>('TokenRequests', 'string', 'tokenRequests indicates the CSI driver needs pods\' service account tokens it is mounting volume for to do necessary authentication.', (d) => {
      const audiences = listOf(d.spec?.tokenRequests).map((t) => t.audience ?? '');
      return audiences.length ? audiences.join(',') : NONE;
    }),
    column<CSIDriver>('RequiresRepublish', 'boolean', 'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called.', (d) => d.spec?.requiresRepublish ?? false),
    column<CSIDriver>('Modes', 'string', 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.', (d) => {
      const modes = listOf(d.spec?.volumeLifecycleModes);
      return modes.length ? modes.join(',') : NONE;
    }),
  ],
};

// ---- CSINode ----

export interface CSINode extends KubeObject {
  spec?: { drivers?: { name?: string; nodeID?: string; topologyKeys?: string[] }[] };
}

export const csiNodesResource: ResourceDefinition = {
  group: GROUP,
  version: 'v1',
  kind: 'CSINode',
  plural: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  strategy: {
    allowCreateOnUpdate: false,
    validate: (obj) => {
      const errs: FieldError[] = [];
      const seen = new Set<string>();
      listOf((obj as CSINode).spec?.drivers).forEach((d, i) => {
        const path = index('spec.drivers', i);
        errs.push(...validateDriverName(d.name, child(path, 'name')));
        if (d.name && seen.has(d.name)) errs.push(FieldError.duplicate(child(path, 'name'), d.name));
        if (d.name) seen.add(d.name);
        if (!d.nodeID) errs.push(FieldError.required(child(path, 'nodeID')));
      });
      return errs;
    },
  },
  tableColumns: [column<CSINode>('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node', (n) => listOf(n.spec?.drivers).length)],
};

// ---- VolumeAttachment ----

export interface VolumeAttachment extends KubeObject {
  spec?: { attacher?: string; nodeName?: string; source?: { persistentVolumeName?: string | null; inlineVolumeSpec?: unknown } };
  status?: { attached?: boolean };
}

/** ValidateVolumeAttachment. */
export function validateVolumeAttachment(va: VolumeAttachment): FieldError[] {
  const spec = va.spec ?? {};
  const errs = validateDriverName(spec.attacher, 'spec.attacher');
  if (!spec.nodeName) errs.push(FieldError.required('spec.nodeName'));
  else errs.push(...invalidEach('spec.nodeName', spec.nodeName, isDNS1123Subdomain(spec.nodeName)));
  const source = spec.source ?? {};
  const set = [source.persistentVolumeName, source.inlineVolumeSpec].filter((v) => v != null).length;
  if (set === 0) errs.push(FieldError.required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (set > 1) errs.push(FieldError.forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  return errs;
}

export const volumeAttachmentsResource: ResourceDefinition = {
  group: GROUP,
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  subresources: { status: statusSubresource() },
  strategy: {
    allowCreateOnUpdate: false,
    validate: (obj) => validateVolumeAttachment(obj as VolumeAttachment),
    validateUpdate: (obj, old) => [...validateVolumeAttachment(obj as VolumeAttachment), ...validateImmutableField((obj as VolumeAttachment).spec, (old as VolumeAttachment).spec, 'spec')],
  },
  tableColumns: [
    column<VolumeAttachment>('Attacher', 'string', 'attacher indicates the name of the volume driver that MUST handle this request.', (va) => va.spec?.attacher ?? ''),
    column<VolumeAttachment>('PV', 'string', 'persistentVolumeName represents the name of the persistent volume to attach.', (va) => va.spec?.source?.persistentVolumeName ?? ''),
    column<VolumeAttachment>('Node', 'string', 'nodeName represents the node that the volume should be attached to.', (va) => va.spec?.nodeName ?? ''),
    column<VolumeAttachment>('Attached', 'boolean', 'attached indicates the volume is successfully attached.', (va) => va.status?.attached ?? false),
  ],
};

export const storageResources: ResourceDefinition[] = [storageClassesResource, csiDriversResource, csiNodesResource, volumeAttachmentsResource];
