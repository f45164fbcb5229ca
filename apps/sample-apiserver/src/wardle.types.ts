/** wardle.example.com/v1alpha1, the API of kube's sample-apiserver (k8s.io/sample-apiserver pkg/apis/wardle/v1alpha1). */
import type { KubeObject } from '@kube/apimachinery';

export const WARDLE_GROUP = 'wardle.example.com';
export const WARDLE_VERSION = 'v1alpha1';

export type ReferenceType = 'Flunder' | 'Fischer';

export const REFERENCE_TYPES: readonly ReferenceType[] = ['Flunder', 'Fischer'];

export interface FlunderSpec {
  /** A name of another flunder or fischer, depending on the reference type. */
  reference?: string;
  /** The reference type, defaults to "Flunder" if reference is set. A string: clients may send anything. */
  referenceType?: string;
}

export interface Flunder extends KubeObject {
  spec?: FlunderSpec;
  status?: Record<string, unknown>;
}

export interface Fischer extends KubeObject {
  /** Names of Flunders that may not be created (BanFlunder admission). */
  disallowedFlunders?: string[];
}
