/** coordination.k8s.io/v1 Lease (pkg/apis/coordination/validation). */
import { FieldError, type KubeObject } from '@kube/apimachinery';
import type { ResourceDefinition, ResourceStrategy } from '@kube/apiserver';

export interface Lease extends KubeObject {
  spec?: {
    holderIdentity?: string | null;
    leaseDurationSeconds?: number | null;
    acquireTime?: string | null;
    renewTime?: string | null;
    leaseTransitions?: number | null;
    strategy?: string | null;
    preferredHolder?: string | null;
  };
}

const COORDINATED_LEASE_STRATEGIES: readonly string[] = ['OldestEmulationVersion'];

export function validateLease(lease: Lease): FieldError[] {
  const spec = lease.spec ?? {};
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(FieldError.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errs.push(FieldError.invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (spec.strategy && !COORDINATED_LEASE_STRATEGIES.includes(spec.strategy)) {
    errs.push(FieldError.notSupported('spec.strategy', spec.strategy, [...COORDINATED_LEASE_STRATEGIES]));
  }
  if (spec.preferredHolder && !spec.strategy) {
    errs.push(FieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

export const leaseStrategy: ResourceStrategy = {
  validate: (obj: KubeObject) => validateLease(obj as Lease),
  validateUpdate: (obj: KubeObject) => validateLease(obj as Lease),
};

export const leasesResource: ResourceDefinition = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  strategy: leaseStrategy,
  tableColumns: [
    {
      name: 'Holder',
      type: 'string',
      description: 'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
      cell: (obj: KubeObject) => (obj as Lease).spec?.holderIdentity ?? '',
    },
  ],
};
