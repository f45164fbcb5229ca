export { REGISTRATION_SUBJECT_PREFIX, type RegistrationSubject, RegistrationSubjects, serviceSubject, subjectService } from './registration.subjects';
export {
  CONTROL_PLANE_REGISTRATION_IDENTITIES,
  type NatsServerConfigOptions,
  natsServerConfig,
  natsUserOf,
  type RegistrationIdentity,
  type RegistrationPermissions,
  type RegistrationRole,
  registrationPermissions,
} from './registration.nats-auth';
export {
  type AnnouncedGroupVersion,
  type Announcement,
  type GroupVersionPriority,
  REGISTRATION_API_VERSION,
  REGISTRATION_SOURCES,
  type RegistrationGroupVersionRef,
  type RegistrationLogger,
  type RegistrationMessage,
  type RegistrationSource,
  type ResyncRequest,
  type Withdrawal,
} from './registration.types';
export { admitClaims, DEFAULT_GROUP_OWNERSHIP, type GroupOwnership, groupOwnershipWith, type OwnershipVerdict, type RefusedClaim } from './group-ownership.policy';
export { CRD_GROUP_PRIORITY, GROUP_PRIORITIES, priorityFor } from './group-priority.table';
export {
  type DecodeResult,
  decodeMessage,
  MAX_GROUP_VERSIONS,
  MAX_MESSAGE_BYTES,
  MAX_TTL_SECONDS,
  MIN_TTL_SECONDS,
  validateAnnouncement,
  validateResyncRequest,
  validateWithdrawal,
} from './registration.schema';
export {
  groupVersionKey,
  type GroupVersionKey,
  type RegisteredEndpoint,
  type RegisteredGroupVersion,
  type RegistrationSnapshot,
} from './live-instance.table';
export {
  DEFAULT_TTL_SECONDS,
  encodeCaBundle,
  type GroupVersionToAnnounce,
  PROCESS_INSTANCE_ID,
  RegistrationAnnouncer,
  type RegistrationAnnouncerOptions,
} from './registration.announcer';
export { type RegistrationChangeListener, RegistrationRegistry, type RegistrationRegistryOptions } from './registration.registry';
export { RegistrationAnnouncers } from './registration.announcers';
export {
  NoRegistrationTransport,
  RegistrationBus,
  RegistrationNatsClient,
  RegistrationDeserializer,
  RegistrationSerializer,
  RegistrationNatsServer,
  type RegistrationNatsTls,
  type RegistrationTransportOptions,
} from './registration.transport';
export { REGISTRATION_TRANSPORT, RegistrationModule, type RegistrationModuleOptions } from './registration.module';
export { createServerApp, startRegistrationApp } from './registration.app';
export { type MessageDirection, registrationMessages, registrationMessagesDropped } from './registration.metrics';
