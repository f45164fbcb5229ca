/* eslint-disable */
// Generated file, do not edit by hand. meta/v1 schemas are not repeated here: they come from
// @kube/apiserver metaV1Components and core-v1.schemas.ts (merged in ./index.ts).
// Contents: rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding and their lists,
// with everything they reference (the transitive closure by $ref of components.schemas), verbatim from
// kubernetes/kubernetes release-1.33 api/openapi-spec/v3/apis__rbac.authorization.k8s.io__v1_openapi.json
// (the copy vendored unmodified in kubernetes-sigs/kubectl-validate pkg/openapiclient/builtins/1.33).
// Descriptions (printed by `kubectl explain`) and x-kubernetes-* extensions (read by strategic merge patch)
// are kept. Generated as .ts rather than .json because the swc build does not copy .json files into dist.
import type { SchemaComponents } from '@kube/apimachinery';

export const rbacV1Components: SchemaComponents = {
  "io.k8s.api.rbac.v1.AggregationRule": {
    "description": "AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole",
    "properties": {
      "clusterRoleSelectors": {
        "description": "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object"
  },
  "io.k8s.api.rbac.v1.ClusterRole": {
    "description": "ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.",
    "properties": {
      "aggregationRule": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.rbac.v1.AggregationRule"
          }
        ],
        "description": "AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller."
      },
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
        "description": "Standard object's metadata."
      },
      "rules": {
        "description": "Rules holds all the PolicyRules for this ClusterRole",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.PolicyRule"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "ClusterRole",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.ClusterRoleBinding": {
    "description": "ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.",
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
        "description": "Standard object's metadata."
      },
      "roleRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.rbac.v1.RoleRef"
          }
        ],
        "default": {},
        "description": "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable."
      },
      "subjects": {
        "description": "Subjects holds references to the objects the role applies to.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.Subject"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "required": [
      "roleRef"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "ClusterRoleBinding",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.ClusterRoleBindingList": {
    "description": "ClusterRoleBindingList is a collection of ClusterRoleBindings",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "Items is a list of ClusterRoleBindings",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.ClusterRoleBinding"
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
        "description": "Standard object's metadata."
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "ClusterRoleBindingList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.ClusterRoleList": {
    "description": "ClusterRoleList is a collection of ClusterRoles",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "Items is a list of ClusterRoles",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.ClusterRole"
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
        "description": "Standard object's metadata."
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "ClusterRoleList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.PolicyRule": {
    "description": "PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.",
    "properties": {
      "apiGroups": {
        "description": "APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. \"\" represents the core API group and \"*\" represents all API groups.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "nonResourceURLs": {
        "description": "NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as \"pods\" or \"secrets\") or non-resource URL paths (such as \"/api\"),  but not both.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resourceNames": {
        "description": "ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resources": {
        "description": "Resources is a list of resources this rule applies to. '*' represents all resources.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "verbs": {
        "description": "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "required": [
      "verbs"
    ],
    "type": "object"
  },
  "io.k8s.api.rbac.v1.Role": {
    "description": "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.",
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
        "description": "Standard object's metadata."
      },
      "rules": {
        "description": "Rules holds all the PolicyRules for this Role",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.PolicyRule"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "Role",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.RoleBinding": {
    "description": "RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.",
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
        "description": "Standard object's metadata."
      },
      "roleRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.rbac.v1.RoleRef"
          }
        ],
        "default": {},
        "description": "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable."
      },
      "subjects": {
        "description": "Subjects holds references to the objects the role applies to.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.Subject"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "required": [
      "roleRef"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "RoleBinding",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.RoleBindingList": {
    "description": "RoleBindingList is a collection of RoleBindings",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "Items is a list of RoleBindings",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.RoleBinding"
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
        "description": "Standard object's metadata."
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "RoleBindingList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.RoleList": {
    "description": "RoleList is a collection of Roles",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "Items is a list of Roles",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.rbac.v1.Role"
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
        "description": "Standard object's metadata."
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "rbac.authorization.k8s.io",
        "kind": "RoleList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.rbac.v1.RoleRef": {
    "description": "RoleRef contains information that points to the role being used",
    "properties": {
      "apiGroup": {
        "default": "",
        "description": "APIGroup is the group for the resource being referenced",
        "type": "string"
      },
      "kind": {
        "default": "",
        "description": "Kind is the type of resource being referenced",
        "type": "string"
      },
      "name": {
        "default": "",
        "description": "Name is the name of resource being referenced",
        "type": "string"
      }
    },
    "required": [
      "apiGroup",
      "kind",
      "name"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.rbac.v1.Subject": {
    "description": "Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.",
    "properties": {
      "apiGroup": {
        "description": "APIGroup holds the API group of the referenced subject. Defaults to \"\" for ServiceAccount subjects. Defaults to \"rbac.authorization.k8s.io\" for User and Group subjects.",
        "type": "string"
      },
      "kind": {
        "default": "",
        "description": "Kind of object being referenced. Values defined by this API group are \"User\", \"Group\", and \"ServiceAccount\". If the Authorizer does not recognized the kind value, the Authorizer should report an error.",
        "type": "string"
      },
      "name": {
        "default": "",
        "description": "Name of the object being referenced.",
        "type": "string"
      },
      "namespace": {
        "description": "Namespace of the referenced object.  If the object kind is non-namespace, such as \"User\" or \"Group\", and this value is not empty the Authorizer should report an error.",
        "type": "string"
      }
    },
    "required": [
      "kind",
      "name"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  }
};
