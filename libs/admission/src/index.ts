export type { AdmissionAttributes, AdmissionContext, AdmissionOperation, AdmissionOptions, AdmissionPlugin, AdmissionResource } from './admission.types';
export { NamespaceLifecycleAdmission, IMMORTAL_NAMESPACES } from './namespace/namespace-lifecycle.admission';
