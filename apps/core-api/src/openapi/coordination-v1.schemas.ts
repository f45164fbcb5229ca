/* eslint-disable */
// Generated file, do not edit by hand. meta/v1 schemas are not repeated here: they come from
// @kube/apiserver metaV1Components (merged in ./index.ts).
// Contents: coordination.k8s.io/v1 Lease, LeaseList,
// meta/v1 Status, DeleteOptions, WatchEvent, Patch, ObjectMeta, ListMeta,
// with everything they reference (the transitive closure by $ref of components.schemas), verbatim from
// kubernetes/kubernetes release-1.33 api/openapi-spec/v3/apis__coordination.k8s.io__v1_openapi.json
// (the copy vendored unmodified in kubernetes-sigs/kubectl-validate pkg/openapiclient/builtins/1.33).
// Descriptions (printed by `kubectl explain`) and x-kubernetes-* extensions (read by strategic merge patch)
// are kept. Generated as .ts rather than .json because the swc build does not copy .json files into dist.
import type { SchemaComponents } from '@kube/apimachinery';

export const coordinationV1Components: SchemaComponents = {
  "io.k8s.api.coordination.v1.Lease": {
    "description": "Lease defines a lease concept.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "kind": {
        "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        "type": "string"
      },
      "metadata": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
          }
        ],
        "default": {},
        "description": "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.coordination.v1.LeaseSpec"
          }
        ],
        "default": {},
        "description": "spec contains the specification of the Lease. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "coordination.k8s.io",
        "kind": "Lease",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.coordination.v1.LeaseList": {
    "description": "LeaseList is a list of Lease objects.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "items is a list of schema objects.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.coordination.v1.Lease"
            }
          ],
          "default": {}
        },
        "type": "array"
      },
      "kind": {
        "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        "type": "string"
      },
      "metadata": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
          }
        ],
        "default": {},
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "coordination.k8s.io",
        "kind": "LeaseList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.coordination.v1.LeaseSpec": {
    "description": "LeaseSpec is a specification of a Lease.",
    "properties": {
      "acquireTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
          }
        ],
        "description": "acquireTime is a time when the current lease was acquired."
      },
      "holderIdentity": {
        "description": "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.",
        "type": "string"
      },
      "leaseDurationSeconds": {
        "description": "leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.",
        "format": "int32",
        "type": "integer"
      },
      "leaseTransitions": {
        "description": "leaseTransitions is the number of transitions of a lease between holders.",
        "format": "int32",
        "type": "integer"
      },
      "preferredHolder": {
        "description": "PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up. This field can only be set if Strategy is also set.",
        "type": "string"
      },
      "renewTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
          }
        ],
        "description": "renewTime is a time when the current holder of a lease has last updated the lease."
      },
      "strategy": {
        "description": "Strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": {
    "description": "MicroTime is version of Time with microsecond level precision.",
    "format": "date-time",
    "type": "string"
  }
};
