import type { KubeObject, UserInfo } from '@kube/apimachinery';

/** kube's admission.Operation. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What admission needs to know of the resource written (a libs/apiserver ResourceDefinition is one). */
export interface AdmissionResource {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

/** The request's context (a libs/apiserver RequestContext is one). */
export interface AdmissionContext {
  user: UserInfo;
  namespace?: string;
  dryRun: boolean;
  /** Warnings that end up in `Warning: 299 - "..."` response headers. */
  warnings: string[];
}

/** The request's options as kube hands them to webhooks (CreateOptions, UpdateOptions, DeleteOptions). */
export interface AdmissionOptions {
  fieldManager?: string;
  fieldValidation?: string;
  /** A DELETE's DeleteOptions as the client sent them (dryRun is the context's). */
  delete?: {
    gracePeriodSeconds?: number;
    preconditions?: { uid?: string; resourceVersion?: string };
    propagationPolicy?: string;
    orphanDependents?: boolean;
  };
}

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  resource: AdmissionResource;
  subresource: string;
  namespace: string;
  name: string;
  /** The incoming object (mutable for mutating plugins: change it in place); absent on DELETE. */
  object?: KubeObject;
  oldObject?: KubeObject;
  ctx: AdmissionContext;
  options?: AdmissionOptions;
}

/** Admission as kube runs it: every plugin's admit (mutating) in order, validation, then every validate. */
export interface AdmissionPlugin {
  name: string;
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  validate?(attrs: AdmissionAttributes): Promise<void> | void;
}
