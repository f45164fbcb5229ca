/** Message types of the registration contract (docs/registration.md). */

/** The apiVersion every v1 message carries; messages with any other apiVersion are ignored. */
export const REGISTRATION_API_VERSION = 'registration.kube-ts.io/v1';

/**
 * Why a group/version is served, mapped to the APIService label kube-aggregator.kubernetes.io/automanaged:
 * "onstart" for a service's built-in group/versions, "crd" (label value "true") for CustomResourceDefinitions.
 */
export type RegistrationSource = 'onstart' | 'crd';

export const REGISTRATION_SOURCES: readonly RegistrationSource[] = ['onstart', 'crd'];

/** A group/version; the core group is "". */
export interface RegistrationGroupVersionRef {
  readonly group: string;
  readonly version: string;
}

/** APIService ordering fields (spec.groupPriorityMinimum 1..20000, spec.versionPriority 1..1000). */
export interface GroupVersionPriority {
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
}

/** One announced group/version with its priorities. */
export interface AnnouncedGroupVersion extends RegistrationGroupVersionRef, GroupVersionPriority {}

/** Published on `kube.registration.v1.announce`: the complete set one instance serves for one source. */
export interface Announcement {
  readonly apiVersion: typeof REGISTRATION_API_VERSION;
  /** Service name, a DNS-1123 label (e.g. "core-api"). */
  readonly service: string;
  /** Unique per process (a UUID), so replicas of one service are told apart. */
  readonly instance: string;
  /** Base https URL the aggregator proxies to, e.g. https://127.0.0.1:6443 */
  readonly endpoint: string;
  /** base64 of the PEM CA bundle that signed the serving certificate. */
  readonly caBundle: string;
  readonly groupVersions: readonly AnnouncedGroupVersion[];
  readonly source: RegistrationSource;
  /** Drop this instance's group/versions when nothing was heard from it for this long. */
  readonly ttlSeconds: number;
  /** RFC 3339 send time (diagnostics only: receivers never compare clocks). */
  readonly sentAt: string;
}

/** Published on `kube.registration.v1.withdraw`. */
export interface Withdrawal {
  readonly apiVersion: typeof REGISTRATION_API_VERSION;
  readonly service: string;
  readonly instance: string;
  readonly source: RegistrationSource;
  /** The group/versions no longer served; absent = everything this instance announced for `source`. */
  readonly groupVersions?: readonly RegistrationGroupVersionRef[];
  readonly sentAt: string;
}

/** Published on `kube.registration.v1.resync` by a registry (aggregator) on connect and reconnect. */
export interface ResyncRequest {
  readonly apiVersion: typeof REGISTRATION_API_VERSION;
  /** Identifies the asking registry (diagnostics). */
  readonly requester: string;
  readonly sentAt: string;
}

export type RegistrationMessage = Announcement | Withdrawal | ResyncRequest;

/** Where the library logs; Nest's Logger fits. */
export interface RegistrationLogger {
  log(message: string): void;
  warn(message: string): void;
  debug?(message: string): void;
}
