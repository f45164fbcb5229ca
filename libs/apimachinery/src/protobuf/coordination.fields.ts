/** Field tables for coordination.k8s.io/v1 (field numbers from k8s.io/api coordination/v1/generated.proto). */
import { int32, KEEP, microTime, msg, str, type MessageSpec } from './field.schema';
import { ObjectMeta } from './meta.fields';

/** Every LeaseSpec field is a pointer in Go, so zero values are kept. */
export const LeaseSpec: MessageSpec = {
  1: str('holderIdentity', KEEP),
  2: int32('leaseDurationSeconds', KEEP),
  3: microTime('acquireTime'),
  4: microTime('renewTime'),
  5: int32('leaseTransitions', KEEP),
  6: str('strategy', KEEP),
  7: str('preferredHolder', KEEP),
};

export const Lease: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', LeaseSpec) };
