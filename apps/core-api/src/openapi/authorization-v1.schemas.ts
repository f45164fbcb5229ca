/* eslint-disable */
// Generated file, do not edit by hand. meta/v1 schemas are not repeated here: they come from
// @kube/apiserver metaV1Components and core-v1.schemas.ts (merged in ./index.ts).
// Contents: authorization.k8s.io/v1 SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview,
// with everything they reference (the transitive closure by $ref of components.schemas), verbatim from
// kubernetes/kubernetes release-1.33 api/openapi-spec/v3/apis__authorization.k8s.io__v1_openapi.json
// (the copy vendored unmodified in kubernetes-sigs/kubectl-validate pkg/openapiclient/builtins/1.33).
// Descriptions (printed by `kubectl explain`) and x-kubernetes-* extensions (read by strategic merge patch)
// are kept. Generated as .ts rather than .json because the swc build does not copy .json files into dist.
import type { SchemaComponents } from '@kube/apimachinery';

export const authorizationV1Components: SchemaComponents = {
  "io.k8s.api.authorization.v1.FieldSelectorAttributes": {
    "description": "FieldSelectorAttributes indicates a field limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.",
    "properties": {
      "rawSelector": {
        "description": "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.",
        "type": "string"
      },
      "requirements": {
        "description": "requirements is the parsed interpretation of a field selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement"
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
  "io.k8s.api.authorization.v1.LabelSelectorAttributes": {
    "description": "LabelSelectorAttributes indicates a label limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.",
    "properties": {
      "rawSelector": {
        "description": "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.",
        "type": "string"
      },
      "requirements": {
        "description": "requirements is the parsed interpretation of a label selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement"
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
  "io.k8s.api.authorization.v1.LocalSubjectAccessReview": {
    "description": "LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.",
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SubjectAccessReviewSpec"
          }
        ],
        "default": {},
        "description": "Spec holds information about the request being evaluated.  spec.namespace must be equal to the namespace you made the request against.  If empty, it is defaulted."
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SubjectAccessReviewStatus"
          }
        ],
        "default": {},
        "description": "Status is filled in by the server and indicates whether the request is allowed or not"
      }
    },
    "required": [
      "spec"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "authorization.k8s.io",
        "kind": "LocalSubjectAccessReview",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.authorization.v1.NonResourceAttributes": {
    "description": "NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface",
    "properties": {
      "path": {
        "description": "Path is the URL path of the request",
        "type": "string"
      },
      "verb": {
        "description": "Verb is the standard HTTP verb",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.authorization.v1.NonResourceRule": {
    "description": "NonResourceRule holds information that describes a rule for the non-resource",
    "properties": {
      "nonResourceURLs": {
        "description": "NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  \"*\" means all.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "verbs": {
        "description": "Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  \"*\" means all.",
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
  "io.k8s.api.authorization.v1.ResourceAttributes": {
    "description": "ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface",
    "properties": {
      "fieldSelector": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.FieldSelectorAttributes"
          }
        ],
        "description": "fieldSelector describes the limitation on access based on field.  It can only limit access, not broaden it.\n\nThis field  is alpha-level. To use this field, you must enable the `AuthorizeWithSelectors` feature gate (disabled by default)."
      },
      "group": {
        "description": "Group is the API Group of the Resource.  \"*\" means all.",
        "type": "string"
      },
      "labelSelector": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.LabelSelectorAttributes"
          }
        ],
        "description": "labelSelector describes the limitation on access based on labels.  It can only limit access, not broaden it.\n\nThis field  is alpha-level. To use this field, you must enable the `AuthorizeWithSelectors` feature gate (disabled by default)."
      },
      "name": {
        "description": "Name is the name of the resource being requested for a \"get\" or deleted for a \"delete\". \"\" (empty) means all.",
        "type": "string"
      },
      "namespace": {
        "description": "Namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces \"\" (empty) is defaulted for LocalSubjectAccessReviews \"\" (empty) is empty for cluster-scoped resources \"\" (empty) means \"all\" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview",
        "type": "string"
      },
      "resource": {
        "description": "Resource is one of the existing resource types.  \"*\" means all.",
        "type": "string"
      },
      "subresource": {
        "description": "Subresource is one of the existing resource types.  \"\" means none.",
        "type": "string"
      },
      "verb": {
        "description": "Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  \"*\" means all.",
        "type": "string"
      },
      "version": {
        "description": "Version is the API Version of the Resource.  \"*\" means all.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.authorization.v1.ResourceRule": {
    "description": "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
    "properties": {
      "apiGroups": {
        "description": "APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  \"*\" means all.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resourceNames": {
        "description": "ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  \"*\" means all.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resources": {
        "description": "Resources is a list of resources this rule applies to.  \"*\" means all in the specified apiGroups.\n \"*/foo\" represents the subresource 'foo' for all resources in the specified apiGroups.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "verbs": {
        "description": "Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  \"*\" means all.",
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
  "io.k8s.api.authorization.v1.SelfSubjectAccessReview": {
    "description": "SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means \"in all namespaces\".  Self is a special case, because users should always be able to check whether they can perform an action",
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec"
          }
        ],
        "default": {},
        "description": "Spec holds information about the request being evaluated.  user and groups must be empty"
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SubjectAccessReviewStatus"
          }
        ],
        "default": {},
        "description": "Status is filled in by the server and indicates whether the request is allowed or not"
      }
    },
    "required": [
      "spec"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "authorization.k8s.io",
        "kind": "SelfSubjectAccessReview",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec": {
    "description": "SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set",
    "properties": {
      "nonResourceAttributes": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.NonResourceAttributes"
          }
        ],
        "description": "NonResourceAttributes describes information for a non-resource access request"
      },
      "resourceAttributes": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.ResourceAttributes"
          }
        ],
        "description": "ResourceAuthorizationAttributes describes information for a resource access request"
      }
    },
    "type": "object"
  },
  "io.k8s.api.authorization.v1.SelfSubjectRulesReview": {
    "description": "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.",
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec"
          }
        ],
        "default": {},
        "description": "Spec holds information about the request being evaluated."
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SubjectRulesReviewStatus"
          }
        ],
        "default": {},
        "description": "Status is filled in by the server and indicates the set of actions a user can perform."
      }
    },
    "required": [
      "spec"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "authorization.k8s.io",
        "kind": "SelfSubjectRulesReview",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec": {
    "description": "SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview.",
    "properties": {
      "namespace": {
        "description": "Namespace to evaluate rules for. Required.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.authorization.v1.SubjectAccessReview": {
    "description": "SubjectAccessReview checks whether or not a user or group can perform an action.",
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SubjectAccessReviewSpec"
          }
        ],
        "default": {},
        "description": "Spec holds information about the request being evaluated"
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.SubjectAccessReviewStatus"
          }
        ],
        "default": {},
        "description": "Status is filled in by the server and indicates whether the request is allowed or not"
      }
    },
    "required": [
      "spec"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "authorization.k8s.io",
        "kind": "SubjectAccessReview",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.authorization.v1.SubjectAccessReviewSpec": {
    "description": "SubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set",
    "properties": {
      "extra": {
        "additionalProperties": {
          "items": {
            "default": "",
            "type": "string"
          },
          "type": "array"
        },
        "description": "Extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is input to the authorizer it needs a reflection here.",
        "type": "object"
      },
      "groups": {
        "description": "Groups is the groups you're testing for.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "nonResourceAttributes": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.NonResourceAttributes"
          }
        ],
        "description": "NonResourceAttributes describes information for a non-resource access request"
      },
      "resourceAttributes": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.authorization.v1.ResourceAttributes"
          }
        ],
        "description": "ResourceAuthorizationAttributes describes information for a resource access request"
      },
      "uid": {
        "description": "UID information about the requesting user.",
        "type": "string"
      },
      "user": {
        "description": "User is the user you're testing for. If you specify \"User\" but not \"Groups\", then is it interpreted as \"What if User were not a member of any groups",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.authorization.v1.SubjectAccessReviewStatus": {
    "description": "SubjectAccessReviewStatus",
    "properties": {
      "allowed": {
        "default": false,
        "description": "Allowed is required. True if the action would be allowed, false otherwise.",
        "type": "boolean"
      },
      "denied": {
        "description": "Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.",
        "type": "boolean"
      },
      "evaluationError": {
        "description": "EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.",
        "type": "string"
      },
      "reason": {
        "description": "Reason is optional.  It indicates why a request was allowed or denied.",
        "type": "string"
      }
    },
    "required": [
      "allowed"
    ],
    "type": "object"
  },
  "io.k8s.api.authorization.v1.SubjectRulesReviewStatus": {
    "description": "SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation. Because authorization rules are additive, if a rule appears in a list it's safe to assume the subject has that permission, even if that list is incomplete.",
    "properties": {
      "evaluationError": {
        "description": "EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete.",
        "type": "string"
      },
      "incomplete": {
        "default": false,
        "description": "Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation.",
        "type": "boolean"
      },
      "nonResourceRules": {
        "description": "NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.authorization.v1.NonResourceRule"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resourceRules": {
        "description": "ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.authorization.v1.ResourceRule"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "required": [
      "resourceRules",
      "nonResourceRules",
      "incomplete"
    ],
    "type": "object"
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement": {
    "description": "FieldSelectorRequirement is a selector that contains values, a key, and an operator that relates the key and values.",
    "properties": {
      "key": {
        "default": "",
        "description": "key is the field selector key that the requirement applies to.",
        "type": "string"
      },
      "operator": {
        "default": "",
        "description": "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. The list of operators may grow in the future.",
        "type": "string"
      },
      "values": {
        "description": "values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "required": [
      "key",
      "operator"
    ],
    "type": "object"
  }
};
