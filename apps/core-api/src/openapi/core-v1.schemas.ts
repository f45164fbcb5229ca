/* eslint-disable */
// Generated file, do not edit by hand. meta/v1 schemas are not repeated here: they come from
// @kube/apiserver metaV1Components (merged in ./index.ts).
// Contents: core/v1 Namespace, ConfigMap, Secret, ServiceAccount, Service, Endpoints, Event, Pod and their lists,
// meta/v1 Status, DeleteOptions, WatchEvent, Patch, ObjectMeta, ListMeta, autoscaling/v1 Scale,
// with everything they reference (the transitive closure by $ref of components.schemas), verbatim from
// kubernetes/kubernetes release-1.33 api/openapi-spec/v3/api__v1_openapi.json
// (the copy vendored unmodified in kubernetes-sigs/kubectl-validate pkg/openapiclient/builtins/1.33).
// Descriptions (printed by `kubectl explain`) and x-kubernetes-* extensions (read by strategic merge patch)
// are kept. Generated as .ts rather than .json because the swc build does not copy .json files into dist.
import type { SchemaComponents } from '@kube/apimachinery';

export const coreV1Components: SchemaComponents = {
  "io.k8s.api.autoscaling.v1.Scale": {
    "description": "Scale represents a scaling request for a resource.",
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
        "description": "Standard object metadata; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata."
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.autoscaling.v1.ScaleSpec"
          }
        ],
        "default": {},
        "description": "spec defines the behavior of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status."
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.autoscaling.v1.ScaleStatus"
          }
        ],
        "default": {},
        "description": "status is the current status of the scale. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status. Read-only."
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "autoscaling",
        "kind": "Scale",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.autoscaling.v1.ScaleSpec": {
    "description": "ScaleSpec describes the attributes of a scale subresource.",
    "properties": {
      "replicas": {
        "description": "replicas is the desired number of instances for the scaled object.",
        "format": "int32",
        "type": "integer"
      }
    },
    "type": "object"
  },
  "io.k8s.api.autoscaling.v1.ScaleStatus": {
    "description": "ScaleStatus represents the current status of a scale subresource.",
    "properties": {
      "replicas": {
        "default": 0,
        "description": "replicas is the actual number of observed instances of the scaled object.",
        "format": "int32",
        "type": "integer"
      },
      "selector": {
        "description": "selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients. The string will be in the same format as the query-param syntax. More info about label selectors: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/",
        "type": "string"
      }
    },
    "required": [
      "replicas"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource": {
    "description": "Represents a Persistent Disk resource in AWS.\n\nAn AWS EBS disk must exist before mounting to a container. The disk must also be in the same AWS zone as the kubelet. An AWS EBS disk can only be mounted as read/write once. AWS EBS volumes support ownership management and SELinux relabeling.",
    "properties": {
      "fsType": {
        "description": "fsType is the filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified. More info: https://kubernetes.io/docs/concepts/storage/volumes#awselasticblockstore",
        "type": "string"
      },
      "partition": {
        "description": "partition is the partition in the volume that you want to mount. If omitted, the default is to mount by volume name. Examples: For volume /dev/sda1, you specify the partition as \"1\". Similarly, the volume partition for /dev/sda is \"0\" (or you can leave the property empty).",
        "format": "int32",
        "type": "integer"
      },
      "readOnly": {
        "description": "readOnly value true will force the readOnly setting in VolumeMounts. More info: https://kubernetes.io/docs/concepts/storage/volumes#awselasticblockstore",
        "type": "boolean"
      },
      "volumeID": {
        "default": "",
        "description": "volumeID is unique ID of the persistent disk resource in AWS (Amazon EBS volume). More info: https://kubernetes.io/docs/concepts/storage/volumes#awselasticblockstore",
        "type": "string"
      }
    },
    "required": [
      "volumeID"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Affinity": {
    "description": "Affinity is a group of affinity scheduling rules.",
    "properties": {
      "nodeAffinity": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.NodeAffinity"
          }
        ],
        "description": "Describes node affinity scheduling rules for the pod."
      },
      "podAffinity": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodAffinity"
          }
        ],
        "description": "Describes pod affinity scheduling rules (e.g. co-locate this pod in the same node, zone, etc. as some other pod(s))."
      },
      "podAntiAffinity": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodAntiAffinity"
          }
        ],
        "description": "Describes pod anti-affinity scheduling rules (e.g. avoid putting this pod in the same node, zone, etc. as some other pod(s))."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.AppArmorProfile": {
    "description": "AppArmorProfile defines a pod or container's AppArmor settings.",
    "properties": {
      "localhostProfile": {
        "description": "localhostProfile indicates a profile loaded on the node that should be used. The profile must be preconfigured on the node to work. Must match the loaded name of the profile. Must be set if and only if type is \"Localhost\".",
        "type": "string"
      },
      "type": {
        "default": "",
        "description": "type indicates which kind of AppArmor profile will be applied. Valid options are:\n  Localhost - a profile pre-loaded on the node.\n  RuntimeDefault - the container runtime's default profile.\n  Unconfined - no AppArmor enforcement.",
        "type": "string"
      }
    },
    "required": [
      "type"
    ],
    "type": "object",
    "x-kubernetes-unions": [
      {
        "discriminator": "type",
        "fields-to-discriminateBy": {
          "localhostProfile": "LocalhostProfile"
        }
      }
    ]
  },
  "io.k8s.api.core.v1.AzureDiskVolumeSource": {
    "description": "AzureDisk represents an Azure Data Disk mount on the host and bind mount to the pod.",
    "properties": {
      "cachingMode": {
        "default": "ReadWrite",
        "description": "cachingMode is the Host Caching mode: None, Read Only, Read Write.",
        "type": "string"
      },
      "diskName": {
        "default": "",
        "description": "diskName is the Name of the data disk in the blob storage",
        "type": "string"
      },
      "diskURI": {
        "default": "",
        "description": "diskURI is the URI of data disk in the blob storage",
        "type": "string"
      },
      "fsType": {
        "default": "ext4",
        "description": "fsType is Filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified.",
        "type": "string"
      },
      "kind": {
        "default": "Shared",
        "description": "kind expected values are Shared: multiple blob disks per storage account  Dedicated: single blob disk per storage account  Managed: azure managed data disk (only in managed availability set). defaults to shared",
        "type": "string"
      },
      "readOnly": {
        "default": false,
        "description": "readOnly Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.",
        "type": "boolean"
      }
    },
    "required": [
      "diskName",
      "diskURI"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.AzureFileVolumeSource": {
    "description": "AzureFile represents an Azure File Service mount on the host and bind mount to the pod.",
    "properties": {
      "readOnly": {
        "description": "readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.",
        "type": "boolean"
      },
      "secretName": {
        "default": "",
        "description": "secretName is the  name of secret that contains Azure Storage Account Name and Key",
        "type": "string"
      },
      "shareName": {
        "default": "",
        "description": "shareName is the azure share Name",
        "type": "string"
      }
    },
    "required": [
      "secretName",
      "shareName"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.CSIVolumeSource": {
    "description": "Represents a source location of a volume to mount, managed by an external CSI driver",
    "properties": {
      "driver": {
        "default": "",
        "description": "driver is the name of the CSI driver that handles this volume. Consult with your admin for the correct name as registered in the cluster.",
        "type": "string"
      },
      "fsType": {
        "description": "fsType to mount. Ex. \"ext4\", \"xfs\", \"ntfs\". If not provided, the empty value is passed to the associated CSI driver which will determine the default filesystem to apply.",
        "type": "string"
      },
      "nodePublishSecretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "nodePublishSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver to complete the CSI NodePublishVolume and NodeUnpublishVolume calls. This field is optional, and  may be empty if no secret is required. If the secret object contains more than one secret, all secret references are passed."
      },
      "readOnly": {
        "description": "readOnly specifies a read-only configuration for the volume. Defaults to false (read/write).",
        "type": "boolean"
      },
      "volumeAttributes": {
        "additionalProperties": {
          "default": "",
          "type": "string"
        },
        "description": "volumeAttributes stores driver-specific properties that are passed to the CSI driver. Consult your driver's documentation for supported values.",
        "type": "object"
      }
    },
    "required": [
      "driver"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Capabilities": {
    "description": "Adds and removes POSIX capabilities from running containers.",
    "properties": {
      "add": {
        "description": "Added capabilities",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "drop": {
        "description": "Removed capabilities",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.CephFSVolumeSource": {
    "description": "Represents a Ceph Filesystem mount that lasts the lifetime of a pod Cephfs volumes do not support ownership management or SELinux relabeling.",
    "properties": {
      "monitors": {
        "description": "monitors is Required: Monitors is a collection of Ceph monitors More info: https://examples.k8s.io/volumes/cephfs/README.md#how-to-use-it",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "path": {
        "description": "path is Optional: Used as the mounted root, rather than the full Ceph tree, default is /",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly is Optional: Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts. More info: https://examples.k8s.io/volumes/cephfs/README.md#how-to-use-it",
        "type": "boolean"
      },
      "secretFile": {
        "description": "secretFile is Optional: SecretFile is the path to key ring for User, default is /etc/ceph/user.secret More info: https://examples.k8s.io/volumes/cephfs/README.md#how-to-use-it",
        "type": "string"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "secretRef is Optional: SecretRef is reference to the authentication secret for User, default is empty. More info: https://examples.k8s.io/volumes/cephfs/README.md#how-to-use-it"
      },
      "user": {
        "description": "user is optional: User is the rados user name, default is admin More info: https://examples.k8s.io/volumes/cephfs/README.md#how-to-use-it",
        "type": "string"
      }
    },
    "required": [
      "monitors"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.CinderVolumeSource": {
    "description": "Represents a cinder volume resource in Openstack. A Cinder volume must exist before mounting to a container. The volume must also be in the same region as the kubelet. Cinder volumes support ownership management and SELinux relabeling.",
    "properties": {
      "fsType": {
        "description": "fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Examples: \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified. More info: https://examples.k8s.io/mysql-cinder-pd/README.md",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts. More info: https://examples.k8s.io/mysql-cinder-pd/README.md",
        "type": "boolean"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "secretRef is optional: points to a secret object containing parameters used to connect to OpenStack."
      },
      "volumeID": {
        "default": "",
        "description": "volumeID used to identify the volume in cinder. More info: https://examples.k8s.io/mysql-cinder-pd/README.md",
        "type": "string"
      }
    },
    "required": [
      "volumeID"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ClientIPConfig": {
    "description": "ClientIPConfig represents the configurations of Client IP based session affinity.",
    "properties": {
      "timeoutSeconds": {
        "description": "timeoutSeconds specifies the seconds of ClientIP type session sticky time. The value must be >0 && <=86400(for 1 day) if ServiceAffinity == \"ClientIP\". Default value is 10800(for 3 hours).",
        "format": "int32",
        "type": "integer"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ClusterTrustBundleProjection": {
    "description": "ClusterTrustBundleProjection describes how to select a set of ClusterTrustBundle objects and project their contents into the pod filesystem.",
    "properties": {
      "labelSelector": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"
          }
        ],
        "description": "Select all ClusterTrustBundles that match this label selector.  Only has effect if signerName is set.  Mutually-exclusive with name.  If unset, interpreted as \"match nothing\".  If set but empty, interpreted as \"match everything\"."
      },
      "name": {
        "description": "Select a single ClusterTrustBundle by object name.  Mutually-exclusive with signerName and labelSelector.",
        "type": "string"
      },
      "optional": {
        "description": "If true, don't block pod startup if the referenced ClusterTrustBundle(s) aren't available.  If using name, then the named ClusterTrustBundle is allowed not to exist.  If using signerName, then the combination of signerName and labelSelector is allowed to match zero ClusterTrustBundles.",
        "type": "boolean"
      },
      "path": {
        "default": "",
        "description": "Relative path from the volume root to write the bundle.",
        "type": "string"
      },
      "signerName": {
        "description": "Select all ClusterTrustBundles that match this signer name. Mutually-exclusive with name.  The contents of all selected ClusterTrustBundles will be unified and deduplicated.",
        "type": "string"
      }
    },
    "required": [
      "path"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ConfigMap": {
    "description": "ConfigMap holds configuration data for pods to consume.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "binaryData": {
        "additionalProperties": {
          "format": "byte",
          "type": "string"
        },
        "description": "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process. Using this field will require 1.10+ apiserver and kubelet.",
        "type": "object"
      },
      "data": {
        "additionalProperties": {
          "default": "",
          "type": "string"
        },
        "description": "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
        "type": "object"
      },
      "immutable": {
        "description": "Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.",
        "type": "boolean"
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
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "ConfigMap",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.ConfigMapEnvSource": {
    "description": "ConfigMapEnvSource selects a ConfigMap to populate the environment variables with.\n\nThe contents of the target ConfigMap's Data field will represent the key-value pairs as environment variables.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "optional": {
        "description": "Specify whether the ConfigMap must be defined",
        "type": "boolean"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ConfigMapKeySelector": {
    "description": "Selects a key from a ConfigMap.",
    "properties": {
      "key": {
        "default": "",
        "description": "The key to select.",
        "type": "string"
      },
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "optional": {
        "description": "Specify whether the ConfigMap or its key must be defined",
        "type": "boolean"
      }
    },
    "required": [
      "key"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.ConfigMapList": {
    "description": "ConfigMapList is a resource containing a list of ConfigMap objects.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "Items is the list of ConfigMaps.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ConfigMap"
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
        "description": "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "ConfigMapList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.ConfigMapProjection": {
    "description": "Adapts a ConfigMap into a projected volume.\n\nThe contents of the target ConfigMap's Data field will be presented in a projected volume as files using the keys in the Data field as the file names, unless the items element is populated with specific mappings of keys to paths. Note that this is identical to a configmap volume source without the default mode.",
    "properties": {
      "items": {
        "description": "items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present. If a key is specified which is not present in the ConfigMap, the volume setup will error unless it is marked optional. Paths must be relative and may not contain the '..' path or start with '..'.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.KeyToPath"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "optional": {
        "description": "optional specify whether the ConfigMap or its keys must be defined",
        "type": "boolean"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ConfigMapVolumeSource": {
    "description": "Adapts a ConfigMap into a volume.\n\nThe contents of the target ConfigMap's Data field will be presented in a volume as files using the keys in the Data field as the file names, unless the items element is populated with specific mappings of keys to paths. ConfigMap volumes support ownership management and SELinux relabeling.",
    "properties": {
      "defaultMode": {
        "description": "defaultMode is optional: mode bits used to set permissions on created files by default. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits. Defaults to 0644. Directories within the path are not affected by this setting. This might be in conflict with other options that affect the file mode, like fsGroup, and the result can be other mode bits set.",
        "format": "int32",
        "type": "integer"
      },
      "items": {
        "description": "items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present. If a key is specified which is not present in the ConfigMap, the volume setup will error unless it is marked optional. Paths must be relative and may not contain the '..' path or start with '..'.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.KeyToPath"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "optional": {
        "description": "optional specify whether the ConfigMap or its keys must be defined",
        "type": "boolean"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.Container": {
    "description": "A single application container that you want to run within a pod.",
    "properties": {
      "args": {
        "description": "Arguments to the entrypoint. The container image's CMD is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. \"$$(VAR_NAME)\" will produce the string literal \"$(VAR_NAME)\". Escaped references will never be expanded, regardless of whether the variable exists or not. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "command": {
        "description": "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. \"$$(VAR_NAME)\" will produce the string literal \"$(VAR_NAME)\". Escaped references will never be expanded, regardless of whether the variable exists or not. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "env": {
        "description": "List of environment variables to set in the container. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EnvVar"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "envFrom": {
        "description": "List of sources to populate environment variables in the container. The keys defined within a source must be a C_IDENTIFIER. All invalid keys will be reported as an event when the container is starting. When a key exists in multiple sources, the value associated with the last source will take precedence. Values defined by an Env with a duplicate key will take precedence. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EnvFromSource"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "image": {
        "description": "Container image name. More info: https://kubernetes.io/docs/concepts/containers/images This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.",
        "type": "string"
      },
      "imagePullPolicy": {
        "description": "Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More info: https://kubernetes.io/docs/concepts/containers/images#updating-images",
        "type": "string"
      },
      "lifecycle": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Lifecycle"
          }
        ],
        "description": "Actions that the management system should take in response to container lifecycle events. Cannot be updated."
      },
      "livenessProbe": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Probe"
          }
        ],
        "description": "Periodic probe of container liveness. Container will be restarted if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes"
      },
      "name": {
        "default": "",
        "description": "Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.",
        "type": "string"
      },
      "ports": {
        "description": "List of ports to expose from the container. Not specifying a port here DOES NOT prevent that port from being exposed. Any port which is listening on the default \"0.0.0.0\" address inside a container will be accessible from the network. Modifying this array with strategic merge patch may corrupt the data. For more information See https://github.com/kubernetes/kubernetes/issues/108255. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerPort"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "containerPort",
          "protocol"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "containerPort",
        "x-kubernetes-patch-strategy": "merge"
      },
      "readinessProbe": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Probe"
          }
        ],
        "description": "Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes"
      },
      "resizePolicy": {
        "description": "Resources resize policy for the container.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerResizePolicy"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resources": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceRequirements"
          }
        ],
        "default": {},
        "description": "Compute Resources required by this container. Cannot be updated. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/"
      },
      "restartPolicy": {
        "description": "RestartPolicy defines the restart behavior of individual containers in a pod. This field may only be set for init containers, and the only allowed value is \"Always\". For non-init containers or when this field is not specified, the restart behavior is defined by the Pod's restart policy and the container type. Setting the RestartPolicy as \"Always\" for the init container will have the following effect: this init container will be continually restarted on exit until all regular containers have terminated. Once all regular containers have completed, all init containers with restartPolicy \"Always\" will be shut down. This lifecycle differs from normal init containers and is often referred to as a \"sidecar\" container. Although this init container still starts in the init container sequence, it does not wait for the container to complete before proceeding to the next init container. Instead, the next init container starts immediately after this init container is started, or after any startupProbe has successfully completed.",
        "type": "string"
      },
      "securityContext": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SecurityContext"
          }
        ],
        "description": "SecurityContext defines the security options the container should be run with. If set, the fields of SecurityContext override the equivalent fields of PodSecurityContext. More info: https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"
      },
      "startupProbe": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Probe"
          }
        ],
        "description": "StartupProbe indicates that the Pod has successfully initialized. If specified, no other probes are executed until this completes successfully. If this probe fails, the Pod will be restarted, just as if the livenessProbe failed. This can be used to provide different probe parameters at the beginning of a Pod's lifecycle, when it might take a long time to load data or warm a cache, than during steady-state operation. This cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes"
      },
      "stdin": {
        "description": "Whether this container should allocate a buffer for stdin in the container runtime. If this is not set, reads from stdin in the container will always result in EOF. Default is false.",
        "type": "boolean"
      },
      "stdinOnce": {
        "description": "Whether the container runtime should close the stdin channel after it has been opened by a single attach. When stdin is true the stdin stream will remain open across multiple attach sessions. If stdinOnce is set to true, stdin is opened on container start, is empty until the first client attaches to stdin, and then remains open and accepts data until the client disconnects, at which time stdin is closed and remains closed until the container is restarted. If this flag is false, a container processes that reads from stdin will never receive an EOF. Default is false",
        "type": "boolean"
      },
      "terminationMessagePath": {
        "description": "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem. Message written is intended to be brief final status, such as an assertion failure message. Will be truncated by the node if greater than 4096 bytes. The total message length across all containers will be limited to 12kb. Defaults to /dev/termination-log. Cannot be updated.",
        "type": "string"
      },
      "terminationMessagePolicy": {
        "description": "Indicate how the termination message should be populated. File will use the contents of terminationMessagePath to populate the container status message on both success and failure. FallbackToLogsOnError will use the last chunk of container log output if the termination message file is empty and the container exited with an error. The log output is limited to 2048 bytes or 80 lines, whichever is smaller. Defaults to File. Cannot be updated.",
        "type": "string"
      },
      "tty": {
        "description": "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true. Default is false.",
        "type": "boolean"
      },
      "volumeDevices": {
        "description": "volumeDevices is the list of block devices to be used by the container.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.VolumeDevice"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "devicePath"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "devicePath",
        "x-kubernetes-patch-strategy": "merge"
      },
      "volumeMounts": {
        "description": "Pod volumes to mount into the container's filesystem. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.VolumeMount"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "mountPath"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "mountPath",
        "x-kubernetes-patch-strategy": "merge"
      },
      "workingDir": {
        "description": "Container's working directory. If not specified, the container runtime's default will be used, which might be configured in the container image. Cannot be updated.",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerPort": {
    "description": "ContainerPort represents a network port in a single container.",
    "properties": {
      "containerPort": {
        "default": 0,
        "description": "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.",
        "format": "int32",
        "type": "integer"
      },
      "hostIP": {
        "description": "What host IP to bind the external port to.",
        "type": "string"
      },
      "hostPort": {
        "description": "Number of port to expose on the host. If specified, this must be a valid port number, 0 < x < 65536. If HostNetwork is specified, this must match ContainerPort. Most containers do not need this.",
        "format": "int32",
        "type": "integer"
      },
      "name": {
        "description": "If specified, this must be an IANA_SVC_NAME and unique within the pod. Each named port in a pod must have a unique name. Name for the port that can be referred to by services.",
        "type": "string"
      },
      "protocol": {
        "default": "TCP",
        "description": "Protocol for port. Must be UDP, TCP, or SCTP. Defaults to \"TCP\".",
        "type": "string"
      }
    },
    "required": [
      "containerPort"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerResizePolicy": {
    "description": "ContainerResizePolicy represents resource resize policy for the container.",
    "properties": {
      "resourceName": {
        "default": "",
        "description": "Name of the resource to which this resource resize policy applies. Supported values: cpu, memory.",
        "type": "string"
      },
      "restartPolicy": {
        "default": "",
        "description": "Restart policy to apply when specified resource is resized. If not specified, it defaults to NotRequired.",
        "type": "string"
      }
    },
    "required": [
      "resourceName",
      "restartPolicy"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerState": {
    "description": "ContainerState holds a possible state of container. Only one of its members may be specified. If none of them is specified, the default one is ContainerStateWaiting.",
    "properties": {
      "running": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerStateRunning"
          }
        ],
        "description": "Details about a running container"
      },
      "terminated": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerStateTerminated"
          }
        ],
        "description": "Details about a terminated container"
      },
      "waiting": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerStateWaiting"
          }
        ],
        "description": "Details about a waiting container"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerStateRunning": {
    "description": "ContainerStateRunning is a running state of a container.",
    "properties": {
      "startedAt": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "Time at which the container was last (re-)started"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerStateTerminated": {
    "description": "ContainerStateTerminated is a terminated state of a container.",
    "properties": {
      "containerID": {
        "description": "Container's ID in the format '<type>://<container_id>'",
        "type": "string"
      },
      "exitCode": {
        "default": 0,
        "description": "Exit status from the last termination of the container",
        "format": "int32",
        "type": "integer"
      },
      "finishedAt": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "Time at which the container last terminated"
      },
      "message": {
        "description": "Message regarding the last termination of the container",
        "type": "string"
      },
      "reason": {
        "description": "(brief) reason from the last termination of the container",
        "type": "string"
      },
      "signal": {
        "description": "Signal from the last termination of the container",
        "format": "int32",
        "type": "integer"
      },
      "startedAt": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "Time at which previous execution of the container started"
      }
    },
    "required": [
      "exitCode"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerStateWaiting": {
    "description": "ContainerStateWaiting is a waiting state of a container.",
    "properties": {
      "message": {
        "description": "Message regarding why the container is not yet running.",
        "type": "string"
      },
      "reason": {
        "description": "(brief) reason the container is not yet running.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerStatus": {
    "description": "ContainerStatus contains details for the current status of this container.",
    "properties": {
      "allocatedResources": {
        "additionalProperties": {
          "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
        },
        "description": "AllocatedResources represents the compute resources allocated for this container by the node. Kubelet sets this value to Container.Resources.Requests upon successful pod admission and after successfully admitting desired pod resize.",
        "type": "object"
      },
      "allocatedResourcesStatus": {
        "description": "AllocatedResourcesStatus represents the status of various resources allocated for this Pod.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceStatus"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "containerID": {
        "description": "ContainerID is the ID of the container in the format '<type>://<container_id>'. Where type is a container runtime identifier, returned from Version call of CRI API (for example \"containerd\").",
        "type": "string"
      },
      "image": {
        "default": "",
        "description": "Image is the name of container image that the container is running. The container image may not match the image used in the PodSpec, as it may have been resolved by the runtime. More info: https://kubernetes.io/docs/concepts/containers/images.",
        "type": "string"
      },
      "imageID": {
        "default": "",
        "description": "ImageID is the image ID of the container's image. The image ID may not match the image ID of the image used in the PodSpec, as it may have been resolved by the runtime.",
        "type": "string"
      },
      "lastState": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerState"
          }
        ],
        "default": {},
        "description": "LastTerminationState holds the last termination state of the container to help debug container crashes and restarts. This field is not populated if the container is still running and RestartCount is 0."
      },
      "name": {
        "default": "",
        "description": "Name is a DNS_LABEL representing the unique name of the container. Each container in a pod must have a unique name across all container types. Cannot be updated.",
        "type": "string"
      },
      "ready": {
        "default": false,
        "description": "Ready specifies whether the container is currently passing its readiness check. The value will change as readiness probes keep executing. If no readiness probes are specified, this field defaults to true once the container is fully started (see Started field).\n\nThe value is typically used to determine whether a container is ready to accept traffic.",
        "type": "boolean"
      },
      "resources": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceRequirements"
          }
        ],
        "description": "Resources represents the compute resource requests and limits that have been successfully enacted on the running container after it has been started or has been successfully resized."
      },
      "restartCount": {
        "default": 0,
        "description": "RestartCount holds the number of times the container has been restarted. Kubelet makes an effort to always increment the value, but there are cases when the state may be lost due to node restarts and then the value may be reset to 0. The value is never negative.",
        "format": "int32",
        "type": "integer"
      },
      "started": {
        "description": "Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe. Initialized as false, becomes true after startupProbe is considered successful. Resets to false when the container is restarted, or if kubelet loses state temporarily. In both cases, startup probes will run again. Is always true when no startupProbe is defined and container is running and has passed the postStart lifecycle hook. The null value must be treated the same as false.",
        "type": "boolean"
      },
      "state": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerState"
          }
        ],
        "default": {},
        "description": "State holds details about the container's current condition."
      },
      "stopSignal": {
        "description": "StopSignal reports the effective stop signal for this container",
        "type": "string"
      },
      "user": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerUser"
          }
        ],
        "description": "User represents user identity information initially attached to the first process of the container"
      },
      "volumeMounts": {
        "description": "Status of volume mounts.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.VolumeMountStatus"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "mountPath"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "mountPath",
        "x-kubernetes-patch-strategy": "merge"
      }
    },
    "required": [
      "name",
      "ready",
      "restartCount",
      "image",
      "imageID"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ContainerUser": {
    "description": "ContainerUser represents user identity information",
    "properties": {
      "linux": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LinuxContainerUser"
          }
        ],
        "description": "Linux holds user identity information initially attached to the first process of the containers in Linux. Note that the actual running identity can be changed if the process has enough privilege to do so."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.DownwardAPIProjection": {
    "description": "Represents downward API info for projecting into a projected volume. Note that this is identical to a downwardAPI volume source without the default mode.",
    "properties": {
      "items": {
        "description": "Items is a list of DownwardAPIVolume file",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.DownwardAPIVolumeFile"
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
  "io.k8s.api.core.v1.DownwardAPIVolumeFile": {
    "description": "DownwardAPIVolumeFile represents information to create the file containing the pod field",
    "properties": {
      "fieldRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ObjectFieldSelector"
          }
        ],
        "description": "Required: Selects a field of the pod: only annotations, labels, name, namespace and uid are supported."
      },
      "mode": {
        "description": "Optional: mode bits used to set permissions on this file, must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits. If not specified, the volume defaultMode will be used. This might be in conflict with other options that affect the file mode, like fsGroup, and the result can be other mode bits set.",
        "format": "int32",
        "type": "integer"
      },
      "path": {
        "default": "",
        "description": "Required: Path is  the relative path name of the file to be created. Must not be absolute or contain the '..' path. Must be utf-8 encoded. The first item of the relative path must not start with '..'",
        "type": "string"
      },
      "resourceFieldRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceFieldSelector"
          }
        ],
        "description": "Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, requests.cpu and requests.memory) are currently supported."
      }
    },
    "required": [
      "path"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.DownwardAPIVolumeSource": {
    "description": "DownwardAPIVolumeSource represents a volume containing downward API info. Downward API volumes support ownership management and SELinux relabeling.",
    "properties": {
      "defaultMode": {
        "description": "Optional: mode bits to use on created files by default. Must be a Optional: mode bits used to set permissions on created files by default. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits. Defaults to 0644. Directories within the path are not affected by this setting. This might be in conflict with other options that affect the file mode, like fsGroup, and the result can be other mode bits set.",
        "format": "int32",
        "type": "integer"
      },
      "items": {
        "description": "Items is a list of downward API volume file",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.DownwardAPIVolumeFile"
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
  "io.k8s.api.core.v1.EmptyDirVolumeSource": {
    "description": "Represents an empty directory for a pod. Empty directory volumes support ownership management and SELinux relabeling.",
    "properties": {
      "medium": {
        "description": "medium represents what type of storage medium should back this directory. The default is \"\" which means to use the node's default medium. Must be an empty string (default) or Memory. More info: https://kubernetes.io/docs/concepts/storage/volumes#emptydir",
        "type": "string"
      },
      "sizeLimit": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
          }
        ],
        "description": "sizeLimit is the total amount of local storage required for this EmptyDir volume. The size limit is also applicable for memory medium. The maximum usage on memory medium EmptyDir would be the minimum value between the SizeLimit specified here and the sum of memory limits of all containers in a pod. The default is nil which means that the limit is undefined. More info: https://kubernetes.io/docs/concepts/storage/volumes#emptydir"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.EndpointAddress": {
    "description": "EndpointAddress is a tuple that describes single IP address. Deprecated: This API is deprecated in v1.33+.",
    "properties": {
      "hostname": {
        "description": "The Hostname of this endpoint",
        "type": "string"
      },
      "ip": {
        "default": "",
        "description": "The IP of this endpoint. May not be loopback (127.0.0.0/8 or ::1), link-local (169.254.0.0/16 or fe80::/10), or link-local multicast (224.0.0.0/24 or ff02::/16).",
        "type": "string"
      },
      "nodeName": {
        "description": "Optional: Node hosting this endpoint. This can be used to determine endpoints local to a node.",
        "type": "string"
      },
      "targetRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ObjectReference"
          }
        ],
        "description": "Reference to object providing the endpoint."
      }
    },
    "required": [
      "ip"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.EndpointPort": {
    "description": "EndpointPort is a tuple that describes a single port. Deprecated: This API is deprecated in v1.33+.",
    "properties": {
      "appProtocol": {
        "description": "The application protocol for this port. This is used as a hint for implementations to offer richer behavior for protocols that they understand. This field follows standard Kubernetes label syntax. Valid values are either:\n\n* Un-prefixed protocol names - reserved for IANA standard service names (as per RFC-6335 and https://www.iana.org/assignments/service-names).\n\n* Kubernetes-defined prefixed names:\n  * 'kubernetes.io/h2c' - HTTP/2 prior knowledge over cleartext as described in https://www.rfc-editor.org/rfc/rfc9113.html#name-starting-http-2-with-prior-\n  * 'kubernetes.io/ws'  - WebSocket over cleartext as described in https://www.rfc-editor.org/rfc/rfc6455\n  * 'kubernetes.io/wss' - WebSocket over TLS as described in https://www.rfc-editor.org/rfc/rfc6455\n\n* Other protocols should use implementation-defined prefixed names such as mycompany.com/my-custom-protocol.",
        "type": "string"
      },
      "name": {
        "description": "The name of this port.  This must match the 'name' field in the corresponding ServicePort. Must be a DNS_LABEL. Optional only if one port is defined.",
        "type": "string"
      },
      "port": {
        "default": 0,
        "description": "The port number of the endpoint.",
        "format": "int32",
        "type": "integer"
      },
      "protocol": {
        "description": "The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.",
        "type": "string"
      }
    },
    "required": [
      "port"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.EndpointSubset": {
    "description": "EndpointSubset is a group of addresses with a common set of ports. The expanded set of endpoints is the Cartesian product of Addresses x Ports. For example, given:\n\n\t{\n\t  Addresses: [{\"ip\": \"10.10.1.1\"}, {\"ip\": \"10.10.2.2\"}],\n\t  Ports:     [{\"name\": \"a\", \"port\": 8675}, {\"name\": \"b\", \"port\": 309}]\n\t}\n\nThe resulting set of endpoints can be viewed as:\n\n\ta: [ 10.10.1.1:8675, 10.10.2.2:8675 ],\n\tb: [ 10.10.1.1:309, 10.10.2.2:309 ]\n\nDeprecated: This API is deprecated in v1.33+.",
    "properties": {
      "addresses": {
        "description": "IP addresses which offer the related ports that are marked as ready. These endpoints should be considered safe for load balancers and clients to utilize.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EndpointAddress"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "notReadyAddresses": {
        "description": "IP addresses which offer the related ports but are not currently marked as ready because they have not yet finished starting, have recently failed a readiness check, or have recently failed a liveness check.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EndpointAddress"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "ports": {
        "description": "Port numbers available on the related IP addresses.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EndpointPort"
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
  "io.k8s.api.core.v1.Endpoints": {
    "description": "Endpoints is a collection of endpoints that implement the actual service. Example:\n\n\t Name: \"mysvc\",\n\t Subsets: [\n\t   {\n\t     Addresses: [{\"ip\": \"10.10.1.1\"}, {\"ip\": \"10.10.2.2\"}],\n\t     Ports: [{\"name\": \"a\", \"port\": 8675}, {\"name\": \"b\", \"port\": 309}]\n\t   },\n\t   {\n\t     Addresses: [{\"ip\": \"10.10.3.3\"}],\n\t     Ports: [{\"name\": \"a\", \"port\": 93}, {\"name\": \"b\", \"port\": 76}]\n\t   },\n\t]\n\nEndpoints is a legacy API and does not contain information about all Service features. Use discoveryv1.EndpointSlice for complete information about Service endpoints.\n\nDeprecated: This API is deprecated in v1.33+. Use discoveryv1.EndpointSlice.",
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
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "subsets": {
        "description": "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EndpointSubset"
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
        "group": "",
        "kind": "Endpoints",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.EndpointsList": {
    "description": "EndpointsList is a list of endpoints. Deprecated: This API is deprecated in v1.33+.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "List of endpoints.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Endpoints"
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "EndpointsList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.EnvFromSource": {
    "description": "EnvFromSource represents the source of a set of ConfigMaps or Secrets",
    "properties": {
      "configMapRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ConfigMapEnvSource"
          }
        ],
        "description": "The ConfigMap to select from"
      },
      "prefix": {
        "description": "Optional text to prepend to the name of each environment variable. Must be a C_IDENTIFIER.",
        "type": "string"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SecretEnvSource"
          }
        ],
        "description": "The Secret to select from"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.EnvVar": {
    "description": "EnvVar represents an environment variable present in a Container.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name of the environment variable. Must be a C_IDENTIFIER.",
        "type": "string"
      },
      "value": {
        "description": "Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. \"$$(VAR_NAME)\" will produce the string literal \"$(VAR_NAME)\". Escaped references will never be expanded, regardless of whether the variable exists or not. Defaults to \"\".",
        "type": "string"
      },
      "valueFrom": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.EnvVarSource"
          }
        ],
        "description": "Source for the environment variable's value. Cannot be used if value is not empty."
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.EnvVarSource": {
    "description": "EnvVarSource represents a source for the value of an EnvVar.",
    "properties": {
      "configMapKeyRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ConfigMapKeySelector"
          }
        ],
        "description": "Selects a key of a ConfigMap."
      },
      "fieldRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ObjectFieldSelector"
          }
        ],
        "description": "Selects a field of the pod: supports metadata.name, metadata.namespace, `metadata.labels['<KEY>']`, `metadata.annotations['<KEY>']`, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs."
      },
      "resourceFieldRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceFieldSelector"
          }
        ],
        "description": "Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported."
      },
      "secretKeyRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SecretKeySelector"
          }
        ],
        "description": "Selects a key of a secret in the pod's namespace"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.EphemeralContainer": {
    "description": "An EphemeralContainer is a temporary container that you may add to an existing Pod for user-initiated activities such as debugging. Ephemeral containers have no resource or scheduling guarantees, and they will not be restarted when they exit or when a Pod is removed or restarted. The kubelet may evict a Pod if an ephemeral container causes the Pod to exceed its resource allocation.\n\nTo add an ephemeral container, use the ephemeralcontainers subresource of an existing Pod. Ephemeral containers may not be removed or restarted.",
    "properties": {
      "args": {
        "description": "Arguments to the entrypoint. The image's CMD is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. \"$$(VAR_NAME)\" will produce the string literal \"$(VAR_NAME)\". Escaped references will never be expanded, regardless of whether the variable exists or not. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "command": {
        "description": "Entrypoint array. Not executed within a shell. The image's ENTRYPOINT is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. \"$$(VAR_NAME)\" will produce the string literal \"$(VAR_NAME)\". Escaped references will never be expanded, regardless of whether the variable exists or not. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "env": {
        "description": "List of environment variables to set in the container. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EnvVar"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "envFrom": {
        "description": "List of sources to populate environment variables in the container. The keys defined within a source must be a C_IDENTIFIER. All invalid keys will be reported as an event when the container is starting. When a key exists in multiple sources, the value associated with the last source will take precedence. Values defined by an Env with a duplicate key will take precedence. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EnvFromSource"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "image": {
        "description": "Container image name. More info: https://kubernetes.io/docs/concepts/containers/images",
        "type": "string"
      },
      "imagePullPolicy": {
        "description": "Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More info: https://kubernetes.io/docs/concepts/containers/images#updating-images",
        "type": "string"
      },
      "lifecycle": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Lifecycle"
          }
        ],
        "description": "Lifecycle is not allowed for ephemeral containers."
      },
      "livenessProbe": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Probe"
          }
        ],
        "description": "Probes are not allowed for ephemeral containers."
      },
      "name": {
        "default": "",
        "description": "Name of the ephemeral container specified as a DNS_LABEL. This name must be unique among all containers, init containers and ephemeral containers.",
        "type": "string"
      },
      "ports": {
        "description": "Ports are not allowed for ephemeral containers.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerPort"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "containerPort",
          "protocol"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "containerPort",
        "x-kubernetes-patch-strategy": "merge"
      },
      "readinessProbe": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Probe"
          }
        ],
        "description": "Probes are not allowed for ephemeral containers."
      },
      "resizePolicy": {
        "description": "Resources resize policy for the container.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerResizePolicy"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resources": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceRequirements"
          }
        ],
        "default": {},
        "description": "Resources are not allowed for ephemeral containers. Ephemeral containers use spare resources already allocated to the pod."
      },
      "restartPolicy": {
        "description": "Restart policy for the container to manage the restart behavior of each container within a pod. This may only be set for init containers. You cannot set this field on ephemeral containers.",
        "type": "string"
      },
      "securityContext": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SecurityContext"
          }
        ],
        "description": "Optional: SecurityContext defines the security options the ephemeral container should be run with. If set, the fields of SecurityContext override the equivalent fields of PodSecurityContext."
      },
      "startupProbe": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Probe"
          }
        ],
        "description": "Probes are not allowed for ephemeral containers."
      },
      "stdin": {
        "description": "Whether this container should allocate a buffer for stdin in the container runtime. If this is not set, reads from stdin in the container will always result in EOF. Default is false.",
        "type": "boolean"
      },
      "stdinOnce": {
        "description": "Whether the container runtime should close the stdin channel after it has been opened by a single attach. When stdin is true the stdin stream will remain open across multiple attach sessions. If stdinOnce is set to true, stdin is opened on container start, is empty until the first client attaches to stdin, and then remains open and accepts data until the client disconnects, at which time stdin is closed and remains closed until the container is restarted. If this flag is false, a container processes that reads from stdin will never receive an EOF. Default is false",
        "type": "boolean"
      },
      "targetContainerName": {
        "description": "If set, the name of the container from PodSpec that this ephemeral container targets. The ephemeral container will be run in the namespaces (IPC, PID, etc) of this container. If not set then the ephemeral container uses the namespaces configured in the Pod spec.\n\nThe container runtime must implement support for this feature. If the runtime does not support namespace targeting then the result of setting this field is undefined.",
        "type": "string"
      },
      "terminationMessagePath": {
        "description": "Optional: Path at which the file to which the container's termination message will be written is mounted into the container's filesystem. Message written is intended to be brief final status, such as an assertion failure message. Will be truncated by the node if greater than 4096 bytes. The total message length across all containers will be limited to 12kb. Defaults to /dev/termination-log. Cannot be updated.",
        "type": "string"
      },
      "terminationMessagePolicy": {
        "description": "Indicate how the termination message should be populated. File will use the contents of terminationMessagePath to populate the container status message on both success and failure. FallbackToLogsOnError will use the last chunk of container log output if the termination message file is empty and the container exited with an error. The log output is limited to 2048 bytes or 80 lines, whichever is smaller. Defaults to File. Cannot be updated.",
        "type": "string"
      },
      "tty": {
        "description": "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true. Default is false.",
        "type": "boolean"
      },
      "volumeDevices": {
        "description": "volumeDevices is the list of block devices to be used by the container.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.VolumeDevice"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "devicePath"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "devicePath",
        "x-kubernetes-patch-strategy": "merge"
      },
      "volumeMounts": {
        "description": "Pod volumes to mount into the container's filesystem. Subpath mounts are not allowed for ephemeral containers. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.VolumeMount"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "mountPath"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "mountPath",
        "x-kubernetes-patch-strategy": "merge"
      },
      "workingDir": {
        "description": "Container's working directory. If not specified, the container runtime's default will be used, which might be configured in the container image. Cannot be updated.",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.EphemeralVolumeSource": {
    "description": "Represents an ephemeral volume that is handled by a normal storage driver.",
    "properties": {
      "volumeClaimTemplate": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PersistentVolumeClaimTemplate"
          }
        ],
        "description": "Will be used to create a stand-alone PVC to provision the volume. The pod in which this EphemeralVolumeSource is embedded will be the owner of the PVC, i.e. the PVC will be deleted together with the pod.  The name of the PVC will be `<pod name>-<volume name>` where `<volume name>` is the name from the `PodSpec.Volumes` array entry. Pod validation will reject the pod if the concatenated name is not valid for a PVC (for example, too long).\n\nAn existing PVC with that name that is not owned by the pod will *not* be used for the pod to avoid using an unrelated volume by mistake. Starting the pod is then blocked until the unrelated PVC is removed. If such a pre-created PVC is meant to be used by the pod, the PVC has to updated with an owner reference to the pod once the pod exists. Normally this should not be necessary, but it may be useful when manually reconstructing a broken cluster.\n\nThis field is read-only and no changes will be made by Kubernetes to the PVC after it has been created.\n\nRequired, must not be nil."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.Event": {
    "description": "Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.",
    "properties": {
      "action": {
        "description": "What action was taken/failed regarding to the Regarding object.",
        "type": "string"
      },
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "count": {
        "description": "The number of times this event has occurred.",
        "format": "int32",
        "type": "integer"
      },
      "eventTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
          }
        ],
        "description": "Time when this Event was first observed."
      },
      "firstTimestamp": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)"
      },
      "involvedObject": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ObjectReference"
          }
        ],
        "default": {},
        "description": "The object that this event is about."
      },
      "kind": {
        "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        "type": "string"
      },
      "lastTimestamp": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "The time at which the most recent occurrence of this event was recorded."
      },
      "message": {
        "description": "A human-readable description of the status of this operation.",
        "type": "string"
      },
      "metadata": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
          }
        ],
        "default": {},
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "reason": {
        "description": "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
        "type": "string"
      },
      "related": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ObjectReference"
          }
        ],
        "description": "Optional secondary object for more complex actions."
      },
      "reportingComponent": {
        "default": "",
        "description": "Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.",
        "type": "string"
      },
      "reportingInstance": {
        "default": "",
        "description": "ID of the controller instance, e.g. `kubelet-xyzf`.",
        "type": "string"
      },
      "series": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.EventSeries"
          }
        ],
        "description": "Data about the Event series this event represents or nil if it's a singleton Event."
      },
      "source": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.EventSource"
          }
        ],
        "default": {},
        "description": "The component reporting this event. Should be a short machine understandable string."
      },
      "type": {
        "description": "Type of this event (Normal, Warning), new types could be added in the future",
        "type": "string"
      }
    },
    "required": [
      "metadata",
      "involvedObject"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "Event",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.EventList": {
    "description": "EventList is a list of events.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "List of events",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Event"
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "EventList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.EventSeries": {
    "description": "EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.",
    "properties": {
      "count": {
        "description": "Number of occurrences in this series up to the last heartbeat time",
        "format": "int32",
        "type": "integer"
      },
      "lastObservedTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"
          }
        ],
        "description": "Time of the last occurrence observed"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.EventSource": {
    "description": "EventSource contains information for an event.",
    "properties": {
      "component": {
        "description": "Component from which the event is generated.",
        "type": "string"
      },
      "host": {
        "description": "Node name on which the event is generated.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ExecAction": {
    "description": "ExecAction describes a \"run in container\" action.",
    "properties": {
      "command": {
        "description": "Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem. The command is simply exec'd, it is not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use a shell, you need to explicitly call out to that shell. Exit status of 0 is treated as live/healthy and non-zero is unhealthy.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.FCVolumeSource": {
    "description": "Represents a Fibre Channel volume. Fibre Channel volumes can only be mounted as read/write once. Fibre Channel volumes support ownership management and SELinux relabeling.",
    "properties": {
      "fsType": {
        "description": "fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified.",
        "type": "string"
      },
      "lun": {
        "description": "lun is Optional: FC target lun number",
        "format": "int32",
        "type": "integer"
      },
      "readOnly": {
        "description": "readOnly is Optional: Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.",
        "type": "boolean"
      },
      "targetWWNs": {
        "description": "targetWWNs is Optional: FC target worldwide names (WWNs)",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "wwids": {
        "description": "wwids Optional: FC volume world wide identifiers (wwids) Either wwids or combination of targetWWNs and lun must be set, but not both simultaneously.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.FlexVolumeSource": {
    "description": "FlexVolume represents a generic volume resource that is provisioned/attached using an exec based plugin.",
    "properties": {
      "driver": {
        "default": "",
        "description": "driver is the name of the driver to use for this volume.",
        "type": "string"
      },
      "fsType": {
        "description": "fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\", \"ntfs\". The default filesystem depends on FlexVolume script.",
        "type": "string"
      },
      "options": {
        "additionalProperties": {
          "default": "",
          "type": "string"
        },
        "description": "options is Optional: this field holds extra command options if any.",
        "type": "object"
      },
      "readOnly": {
        "description": "readOnly is Optional: defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.",
        "type": "boolean"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "secretRef is Optional: secretRef is reference to the secret object containing sensitive information to pass to the plugin scripts. This may be empty if no secret object is specified. If the secret object contains more than one secret, all secrets are passed to the plugin scripts."
      }
    },
    "required": [
      "driver"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.FlockerVolumeSource": {
    "description": "Represents a Flocker volume mounted by the Flocker agent. One and only one of datasetName and datasetUUID should be set. Flocker volumes do not support ownership management or SELinux relabeling.",
    "properties": {
      "datasetName": {
        "description": "datasetName is Name of the dataset stored as metadata -> name on the dataset for Flocker should be considered as deprecated",
        "type": "string"
      },
      "datasetUUID": {
        "description": "datasetUUID is the UUID of the dataset. This is unique identifier of a Flocker dataset",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.GCEPersistentDiskVolumeSource": {
    "description": "Represents a Persistent Disk resource in Google Compute Engine.\n\nA GCE PD must exist before mounting to a container. The disk must also be in the same GCE project and zone as the kubelet. A GCE PD can only be mounted as read/write once or read-only many times. GCE PDs support ownership management and SELinux relabeling.",
    "properties": {
      "fsType": {
        "description": "fsType is filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified. More info: https://kubernetes.io/docs/concepts/storage/volumes#gcepersistentdisk",
        "type": "string"
      },
      "partition": {
        "description": "partition is the partition in the volume that you want to mount. If omitted, the default is to mount by volume name. Examples: For volume /dev/sda1, you specify the partition as \"1\". Similarly, the volume partition for /dev/sda is \"0\" (or you can leave the property empty). More info: https://kubernetes.io/docs/concepts/storage/volumes#gcepersistentdisk",
        "format": "int32",
        "type": "integer"
      },
      "pdName": {
        "default": "",
        "description": "pdName is unique name of the PD resource in GCE. Used to identify the disk in GCE. More info: https://kubernetes.io/docs/concepts/storage/volumes#gcepersistentdisk",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false. More info: https://kubernetes.io/docs/concepts/storage/volumes#gcepersistentdisk",
        "type": "boolean"
      }
    },
    "required": [
      "pdName"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.GRPCAction": {
    "description": "GRPCAction specifies an action involving a GRPC service.",
    "properties": {
      "port": {
        "default": 0,
        "description": "Port number of the gRPC service. Number must be in the range 1 to 65535.",
        "format": "int32",
        "type": "integer"
      },
      "service": {
        "default": "",
        "description": "Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md).\n\nIf this is not specified, the default behavior is defined by gRPC.",
        "type": "string"
      }
    },
    "required": [
      "port"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.GitRepoVolumeSource": {
    "description": "Represents a volume that is populated with the contents of a git repository. Git repo volumes do not support ownership management. Git repo volumes support SELinux relabeling.\n\nDEPRECATED: GitRepo is deprecated. To provision a container with a git repo, mount an EmptyDir into an InitContainer that clones the repo using git, then mount the EmptyDir into the Pod's container.",
    "properties": {
      "directory": {
        "description": "directory is the target directory name. Must not contain or start with '..'.  If '.' is supplied, the volume directory will be the git repository.  Otherwise, if specified, the volume will contain the git repository in the subdirectory with the given name.",
        "type": "string"
      },
      "repository": {
        "default": "",
        "description": "repository is the URL",
        "type": "string"
      },
      "revision": {
        "description": "revision is the commit hash for the specified revision.",
        "type": "string"
      }
    },
    "required": [
      "repository"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.GlusterfsVolumeSource": {
    "description": "Represents a Glusterfs mount that lasts the lifetime of a pod. Glusterfs volumes do not support ownership management or SELinux relabeling.",
    "properties": {
      "endpoints": {
        "default": "",
        "description": "endpoints is the endpoint name that details Glusterfs topology. More info: https://examples.k8s.io/volumes/glusterfs/README.md#create-a-pod",
        "type": "string"
      },
      "path": {
        "default": "",
        "description": "path is the Glusterfs volume path. More info: https://examples.k8s.io/volumes/glusterfs/README.md#create-a-pod",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly here will force the Glusterfs volume to be mounted with read-only permissions. Defaults to false. More info: https://examples.k8s.io/volumes/glusterfs/README.md#create-a-pod",
        "type": "boolean"
      }
    },
    "required": [
      "endpoints",
      "path"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.HTTPGetAction": {
    "description": "HTTPGetAction describes an action based on HTTP Get requests.",
    "properties": {
      "host": {
        "description": "Host name to connect to, defaults to the pod IP. You probably want to set \"Host\" in httpHeaders instead.",
        "type": "string"
      },
      "httpHeaders": {
        "description": "Custom headers to set in the request. HTTP allows repeated headers.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.HTTPHeader"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "path": {
        "description": "Path to access on the HTTP server.",
        "type": "string"
      },
      "port": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"
          }
        ],
        "description": "Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME."
      },
      "scheme": {
        "description": "Scheme to use for connecting to the host. Defaults to HTTP.",
        "type": "string"
      }
    },
    "required": [
      "port"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.HTTPHeader": {
    "description": "HTTPHeader describes a custom header to be used in HTTP probes",
    "properties": {
      "name": {
        "default": "",
        "description": "The header field name. This will be canonicalized upon output, so case-variant names will be understood as the same header.",
        "type": "string"
      },
      "value": {
        "default": "",
        "description": "The header field value",
        "type": "string"
      }
    },
    "required": [
      "name",
      "value"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.HostAlias": {
    "description": "HostAlias holds the mapping between IP and hostnames that will be injected as an entry in the pod's hosts file.",
    "properties": {
      "hostnames": {
        "description": "Hostnames for the above IP address.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "ip": {
        "default": "",
        "description": "IP address of the host file entry.",
        "type": "string"
      }
    },
    "required": [
      "ip"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.HostIP": {
    "description": "HostIP represents a single IP address allocated to the host.",
    "properties": {
      "ip": {
        "default": "",
        "description": "IP is the IP address assigned to the host",
        "type": "string"
      }
    },
    "required": [
      "ip"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.HostPathVolumeSource": {
    "description": "Represents a host path mapped into a pod. Host path volumes do not support ownership management or SELinux relabeling.",
    "properties": {
      "path": {
        "default": "",
        "description": "path of the directory on the host. If the path is a symlink, it will follow the link to the real path. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath",
        "type": "string"
      },
      "type": {
        "description": "type for HostPath Volume Defaults to \"\" More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath",
        "type": "string"
      }
    },
    "required": [
      "path"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ISCSIVolumeSource": {
    "description": "Represents an ISCSI disk. ISCSI volumes can only be mounted as read/write once. ISCSI volumes support ownership management and SELinux relabeling.",
    "properties": {
      "chapAuthDiscovery": {
        "description": "chapAuthDiscovery defines whether support iSCSI Discovery CHAP authentication",
        "type": "boolean"
      },
      "chapAuthSession": {
        "description": "chapAuthSession defines whether support iSCSI Session CHAP authentication",
        "type": "boolean"
      },
      "fsType": {
        "description": "fsType is the filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified. More info: https://kubernetes.io/docs/concepts/storage/volumes#iscsi",
        "type": "string"
      },
      "initiatorName": {
        "description": "initiatorName is the custom iSCSI Initiator Name. If initiatorName is specified with iscsiInterface simultaneously, new iSCSI interface <target portal>:<volume name> will be created for the connection.",
        "type": "string"
      },
      "iqn": {
        "default": "",
        "description": "iqn is the target iSCSI Qualified Name.",
        "type": "string"
      },
      "iscsiInterface": {
        "default": "default",
        "description": "iscsiInterface is the interface Name that uses an iSCSI transport. Defaults to 'default' (tcp).",
        "type": "string"
      },
      "lun": {
        "default": 0,
        "description": "lun represents iSCSI Target Lun number.",
        "format": "int32",
        "type": "integer"
      },
      "portals": {
        "description": "portals is the iSCSI Target Portal List. The portal is either an IP or ip_addr:port if the port is other than default (typically TCP ports 860 and 3260).",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "readOnly": {
        "description": "readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false.",
        "type": "boolean"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "secretRef is the CHAP Secret for iSCSI target and initiator authentication"
      },
      "targetPortal": {
        "default": "",
        "description": "targetPortal is iSCSI Target Portal. The Portal is either an IP or ip_addr:port if the port is other than default (typically TCP ports 860 and 3260).",
        "type": "string"
      }
    },
    "required": [
      "targetPortal",
      "iqn",
      "lun"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ImageVolumeSource": {
    "description": "ImageVolumeSource represents a image volume resource.",
    "properties": {
      "pullPolicy": {
        "description": "Policy for pulling OCI objects. Possible values are: Always: the kubelet always attempts to pull the reference. Container creation will fail If the pull fails. Never: the kubelet never pulls the reference and only uses a local image or artifact. Container creation will fail if the reference isn't present. IfNotPresent: the kubelet pulls if the reference isn't already present on disk. Container creation will fail if the reference isn't present and the pull fails. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.",
        "type": "string"
      },
      "reference": {
        "description": "Required: Image or artifact reference to be used. Behaves in the same way as pod.spec.containers[*].image. Pull secrets will be assembled in the same way as for the container image by looking up node credentials, SA image pull secrets, and pod spec image pull secrets. More info: https://kubernetes.io/docs/concepts/containers/images This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.KeyToPath": {
    "description": "Maps a string key to a path within a volume.",
    "properties": {
      "key": {
        "default": "",
        "description": "key is the key to project.",
        "type": "string"
      },
      "mode": {
        "description": "mode is Optional: mode bits used to set permissions on this file. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits. If not specified, the volume defaultMode will be used. This might be in conflict with other options that affect the file mode, like fsGroup, and the result can be other mode bits set.",
        "format": "int32",
        "type": "integer"
      },
      "path": {
        "default": "",
        "description": "path is the relative path of the file to map the key to. May not be an absolute path. May not contain the path element '..'. May not start with the string '..'.",
        "type": "string"
      }
    },
    "required": [
      "key",
      "path"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Lifecycle": {
    "description": "Lifecycle describes actions that the management system should take in response to container lifecycle events. For the PostStart and PreStop lifecycle handlers, management of the container blocks until the action is complete, unless the container process fails, in which case the handler is aborted.",
    "properties": {
      "postStart": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LifecycleHandler"
          }
        ],
        "description": "PostStart is called immediately after a container is created. If the handler fails, the container is terminated and restarted according to its restart policy. Other management of the container blocks until the hook completes. More info: https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/#container-hooks"
      },
      "preStop": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LifecycleHandler"
          }
        ],
        "description": "PreStop is called immediately before a container is terminated due to an API request or management event such as liveness/startup probe failure, preemption, resource contention, etc. The handler is not called if the container crashes or exits. The Pod's termination grace period countdown begins before the PreStop hook is executed. Regardless of the outcome of the handler, the container will eventually terminate within the Pod's termination grace period (unless delayed by finalizers). Other management of the container blocks until the hook completes or until the termination grace period is reached. More info: https://kubernetes.io/docs/concepts/containers/container-lifecycle-hooks/#container-hooks"
      },
      "stopSignal": {
        "description": "StopSignal defines which signal will be sent to a container when it is being stopped. If not specified, the default is defined by the container runtime in use. StopSignal can only be set for Pods with a non-empty .spec.os.name",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.LifecycleHandler": {
    "description": "LifecycleHandler defines a specific action that should be taken in a lifecycle hook. One and only one of the fields, except TCPSocket must be specified.",
    "properties": {
      "exec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ExecAction"
          }
        ],
        "description": "Exec specifies a command to execute in the container."
      },
      "httpGet": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.HTTPGetAction"
          }
        ],
        "description": "HTTPGet specifies an HTTP GET request to perform."
      },
      "sleep": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SleepAction"
          }
        ],
        "description": "Sleep represents a duration that the container should sleep."
      },
      "tcpSocket": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.TCPSocketAction"
          }
        ],
        "description": "Deprecated. TCPSocket is NOT supported as a LifecycleHandler and kept for backward compatibility. There is no validation of this field and lifecycle hooks will fail at runtime when it is specified."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.LinuxContainerUser": {
    "description": "LinuxContainerUser represents user identity information in Linux containers",
    "properties": {
      "gid": {
        "default": 0,
        "description": "GID is the primary gid initially attached to the first process in the container",
        "format": "int64",
        "type": "integer"
      },
      "supplementalGroups": {
        "description": "SupplementalGroups are the supplemental groups initially attached to the first process in the container",
        "items": {
          "default": 0,
          "format": "int64",
          "type": "integer"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "uid": {
        "default": 0,
        "description": "UID is the primary uid initially attached to the first process in the container",
        "format": "int64",
        "type": "integer"
      }
    },
    "required": [
      "uid",
      "gid"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.LoadBalancerIngress": {
    "description": "LoadBalancerIngress represents the status of a load-balancer ingress point: traffic intended for the service should be sent to an ingress point.",
    "properties": {
      "hostname": {
        "description": "Hostname is set for load-balancer ingress points that are DNS based (typically AWS load-balancers)",
        "type": "string"
      },
      "ip": {
        "description": "IP is set for load-balancer ingress points that are IP based (typically GCE or OpenStack load-balancers)",
        "type": "string"
      },
      "ipMode": {
        "description": "IPMode specifies how the load-balancer IP behaves, and may only be specified when the ip field is specified. Setting this to \"VIP\" indicates that traffic is delivered to the node with the destination set to the load-balancer's IP and port. Setting this to \"Proxy\" indicates that traffic is delivered to the node or pod with the destination set to the node's IP and node port or the pod's IP and port. Service implementations may use this information to adjust traffic routing.",
        "type": "string"
      },
      "ports": {
        "description": "Ports is a list of records of service ports If used, every port defined in the service should have an entry in it",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PortStatus"
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
  "io.k8s.api.core.v1.LoadBalancerStatus": {
    "description": "LoadBalancerStatus represents the status of a load-balancer.",
    "properties": {
      "ingress": {
        "description": "Ingress is a list containing ingress points for the load-balancer. Traffic intended for the service should be sent to these ingress points.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.LoadBalancerIngress"
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
  "io.k8s.api.core.v1.LocalObjectReference": {
    "description": "LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      }
    },
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.NFSVolumeSource": {
    "description": "Represents an NFS mount that lasts the lifetime of a pod. NFS volumes do not support ownership management or SELinux relabeling.",
    "properties": {
      "path": {
        "default": "",
        "description": "path that is exported by the NFS server. More info: https://kubernetes.io/docs/concepts/storage/volumes#nfs",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly here will force the NFS export to be mounted with read-only permissions. Defaults to false. More info: https://kubernetes.io/docs/concepts/storage/volumes#nfs",
        "type": "boolean"
      },
      "server": {
        "default": "",
        "description": "server is the hostname or IP address of the NFS server. More info: https://kubernetes.io/docs/concepts/storage/volumes#nfs",
        "type": "string"
      }
    },
    "required": [
      "server",
      "path"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Namespace": {
    "description": "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
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
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.NamespaceSpec"
          }
        ],
        "default": {},
        "description": "Spec defines the behavior of the Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.NamespaceStatus"
          }
        ],
        "default": {},
        "description": "Status describes the current status of a Namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "Namespace",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.NamespaceCondition": {
    "description": "NamespaceCondition contains details about state of namespace.",
    "properties": {
      "lastTransitionTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "Last time the condition transitioned from one status to another."
      },
      "message": {
        "description": "Human-readable message indicating details about last transition.",
        "type": "string"
      },
      "reason": {
        "description": "Unique, one-word, CamelCase reason for the condition's last transition.",
        "type": "string"
      },
      "status": {
        "default": "",
        "description": "Status of the condition, one of True, False, Unknown.",
        "type": "string"
      },
      "type": {
        "default": "",
        "description": "Type of namespace controller condition.",
        "type": "string"
      }
    },
    "required": [
      "type",
      "status"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.NamespaceList": {
    "description": "NamespaceList is a list of Namespaces.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "Items is the list of Namespace objects in the list. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Namespace"
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "NamespaceList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.NamespaceSpec": {
    "description": "NamespaceSpec describes the attributes on a Namespace.",
    "properties": {
      "finalizers": {
        "description": "Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.NamespaceStatus": {
    "description": "NamespaceStatus is information about the current status of a Namespace.",
    "properties": {
      "conditions": {
        "description": "Represents the latest available observations of a namespace's current state.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.NamespaceCondition"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "type"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "type",
        "x-kubernetes-patch-strategy": "merge"
      },
      "phase": {
        "description": "Phase is the current lifecycle phase of the namespace. More info: https://kubernetes.io/docs/tasks/administer-cluster/namespaces/",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.NodeAffinity": {
    "description": "Node affinity is a group of node affinity scheduling rules.",
    "properties": {
      "preferredDuringSchedulingIgnoredDuringExecution": {
        "description": "The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions. The node that is most preferred is the one with the greatest sum of weights, i.e. for each node that meets all of the scheduling requirements (resource request, requiredDuringScheduling affinity expressions, etc.), compute a sum by iterating through the elements of this field and adding \"weight\" to the sum if the node matches the corresponding matchExpressions; the node(s) with the highest sum are the most preferred.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PreferredSchedulingTerm"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "requiredDuringSchedulingIgnoredDuringExecution": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.NodeSelector"
          }
        ],
        "description": "If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node. If the affinity requirements specified by this field cease to be met at some point during pod execution (e.g. due to an update), the system may or may not try to eventually evict the pod from its node."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.NodeSelector": {
    "description": "A node selector represents the union of the results of one or more label queries over a set of nodes; that is, it represents the OR of the selectors represented by the node selector terms.",
    "properties": {
      "nodeSelectorTerms": {
        "description": "Required. A list of node selector terms. The terms are ORed.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.NodeSelectorTerm"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "required": [
      "nodeSelectorTerms"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.NodeSelectorRequirement": {
    "description": "A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.",
    "properties": {
      "key": {
        "default": "",
        "description": "The label key that the selector applies to.",
        "type": "string"
      },
      "operator": {
        "default": "",
        "description": "Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.",
        "type": "string"
      },
      "values": {
        "description": "An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt or Lt, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch.",
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
  },
  "io.k8s.api.core.v1.NodeSelectorTerm": {
    "description": "A null or empty node selector term matches no objects. The requirements of them are ANDed. The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.",
    "properties": {
      "matchExpressions": {
        "description": "A list of node selector requirements by node's labels.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.NodeSelectorRequirement"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "matchFields": {
        "description": "A list of node selector requirements by node's fields.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.NodeSelectorRequirement"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.ObjectFieldSelector": {
    "description": "ObjectFieldSelector selects an APIVersioned field of an object.",
    "properties": {
      "apiVersion": {
        "description": "Version of the schema the FieldPath is written in terms of, defaults to \"v1\".",
        "type": "string"
      },
      "fieldPath": {
        "default": "",
        "description": "Path of the field to select in the specified API version.",
        "type": "string"
      }
    },
    "required": [
      "fieldPath"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.ObjectReference": {
    "description": "ObjectReference contains enough information to let you inspect or modify the referred object.",
    "properties": {
      "apiVersion": {
        "description": "API version of the referent.",
        "type": "string"
      },
      "fieldPath": {
        "description": "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
        "type": "string"
      },
      "kind": {
        "description": "Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        "type": "string"
      },
      "name": {
        "description": "Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "namespace": {
        "description": "Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/",
        "type": "string"
      },
      "resourceVersion": {
        "description": "Specific resourceVersion to which this reference is made, if any. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency",
        "type": "string"
      },
      "uid": {
        "description": "UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids",
        "type": "string"
      }
    },
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.PersistentVolumeClaimSpec": {
    "description": "PersistentVolumeClaimSpec describes the common attributes of storage devices and allows a Source for provider-specific attributes",
    "properties": {
      "accessModes": {
        "description": "accessModes contains the desired access modes the volume should have. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "dataSource": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.TypedLocalObjectReference"
          }
        ],
        "description": "dataSource field can be used to specify either: * An existing VolumeSnapshot object (snapshot.storage.k8s.io/VolumeSnapshot) * An existing PVC (PersistentVolumeClaim) If the provisioner or an external controller can support the specified data source, it will create a new volume based on the contents of the specified data source. When the AnyVolumeDataSource feature gate is enabled, dataSource contents will be copied to dataSourceRef, and dataSourceRef contents will be copied to dataSource when dataSourceRef.namespace is not specified. If the namespace is specified, then dataSourceRef will not be copied to dataSource."
      },
      "dataSourceRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.TypedObjectReference"
          }
        ],
        "description": "dataSourceRef specifies the object from which to populate the volume with data, if a non-empty volume is desired. This may be any object from a non-empty API group (non core object) or a PersistentVolumeClaim object. When this field is specified, volume binding will only succeed if the type of the specified object matches some installed volume populator or dynamic provisioner. This field will replace the functionality of the dataSource field and as such if both fields are non-empty, they must have the same value. For backwards compatibility, when namespace isn't specified in dataSourceRef, both fields (dataSource and dataSourceRef) will be set to the same value automatically if one of them is empty and the other is non-empty. When namespace is specified in dataSourceRef, dataSource isn't set to the same value and must be empty. There are three important differences between dataSource and dataSourceRef: * While dataSource only allows two specific types of objects, dataSourceRef\n  allows any non-core object, as well as PersistentVolumeClaim objects.\n* While dataSource ignores disallowed values (dropping them), dataSourceRef\n  preserves all values, and generates an error if a disallowed value is\n  specified.\n* While dataSource only allows local objects, dataSourceRef allows objects\n  in any namespaces.\n(Beta) Using this field requires the AnyVolumeDataSource feature gate to be enabled. (Alpha) Using the namespace field of dataSourceRef requires the CrossNamespaceVolumeDataSource feature gate to be enabled."
      },
      "resources": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.VolumeResourceRequirements"
          }
        ],
        "default": {},
        "description": "resources represents the minimum resources the volume should have. If RecoverVolumeExpansionFailure feature is enabled users are allowed to specify resource requirements that are lower than previous value but must still be higher than capacity recorded in the status field of the claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#resources"
      },
      "selector": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"
          }
        ],
        "description": "selector is a label query over volumes to consider for binding."
      },
      "storageClassName": {
        "description": "storageClassName is the name of the StorageClass required by the claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#class-1",
        "type": "string"
      },
      "volumeAttributesClassName": {
        "description": "volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim. If specified, the CSI driver will create or update the volume with the attributes defined in the corresponding VolumeAttributesClass. This has a different purpose than storageClassName, it can be changed after the claim is created. An empty string value means that no VolumeAttributesClass will be applied to the claim but it's not allowed to reset this field to empty string once it is set. If unspecified and the PersistentVolumeClaim is unbound, the default VolumeAttributesClass will be set by the persistentvolume controller if it exists. If the resource referred to by volumeAttributesClass does not exist, this PersistentVolumeClaim will be set to a Pending state, as reflected by the modifyVolumeStatus field, until such as a resource exists. More info: https://kubernetes.io/docs/concepts/storage/volume-attributes-classes/ (Beta) Using this field requires the VolumeAttributesClass feature gate to be enabled (off by default).",
        "type": "string"
      },
      "volumeMode": {
        "description": "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
        "type": "string"
      },
      "volumeName": {
        "description": "volumeName is the binding reference to the PersistentVolume backing this claim.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.PersistentVolumeClaimTemplate": {
    "description": "PersistentVolumeClaimTemplate is used to produce PersistentVolumeClaim objects as part of an EphemeralVolumeSource.",
    "properties": {
      "metadata": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
          }
        ],
        "default": {},
        "description": "May contain labels and annotations that will be copied into the PVC when creating it. No other fields are allowed and will be rejected during validation."
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PersistentVolumeClaimSpec"
          }
        ],
        "default": {},
        "description": "The specification for the PersistentVolumeClaim. The entire content is copied unchanged into the PVC that gets created from this template. The same fields as in a PersistentVolumeClaim are also valid here."
      }
    },
    "required": [
      "spec"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource": {
    "description": "PersistentVolumeClaimVolumeSource references the user's PVC in the same namespace. This volume finds the bound PV and mounts that volume for the pod. A PersistentVolumeClaimVolumeSource is, essentially, a wrapper around another type of volume that is owned by someone else (the system).",
    "properties": {
      "claimName": {
        "default": "",
        "description": "claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly Will force the ReadOnly setting in VolumeMounts. Default false.",
        "type": "boolean"
      }
    },
    "required": [
      "claimName"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource": {
    "description": "Represents a Photon Controller persistent disk resource.",
    "properties": {
      "fsType": {
        "description": "fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified.",
        "type": "string"
      },
      "pdID": {
        "default": "",
        "description": "pdID is the ID that identifies Photon Controller persistent disk",
        "type": "string"
      }
    },
    "required": [
      "pdID"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Pod": {
    "description": "Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.",
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
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"
          }
        ],
        "default": {},
        "description": "Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodStatus"
          }
        ],
        "default": {},
        "description": "Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "Pod",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.PodAffinity": {
    "description": "Pod affinity is a group of inter pod affinity scheduling rules.",
    "properties": {
      "preferredDuringSchedulingIgnoredDuringExecution": {
        "description": "The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions. The node that is most preferred is the one with the greatest sum of weights, i.e. for each node that meets all of the scheduling requirements (resource request, requiredDuringScheduling affinity expressions, etc.), compute a sum by iterating through the elements of this field and adding \"weight\" to the sum if the node has pods which matches the corresponding podAffinityTerm; the node(s) with the highest sum are the most preferred.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.WeightedPodAffinityTerm"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "requiredDuringSchedulingIgnoredDuringExecution": {
        "description": "If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node. If the affinity requirements specified by this field cease to be met at some point during pod execution (e.g. due to a pod label update), the system may or may not try to eventually evict the pod from its node. When there are multiple elements, the lists of nodes corresponding to each podAffinityTerm are intersected, i.e. all terms must be satisfied.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodAffinityTerm"
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
  "io.k8s.api.core.v1.PodAffinityTerm": {
    "description": "Defines a set of pods (namely those matching the labelSelector relative to the given namespace(s)) that this pod should be co-located (affinity) or not co-located (anti-affinity) with, where co-located is defined as running on a node whose value of the label with key <topologyKey> matches that of any node on which a pod of the set of pods is running",
    "properties": {
      "labelSelector": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"
          }
        ],
        "description": "A label query over a set of resources, in this case pods. If it's null, this PodAffinityTerm matches with no Pods."
      },
      "matchLabelKeys": {
        "description": "MatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration. The keys are used to lookup values from the incoming pod labels, those key-value labels are merged with `labelSelector` as `key in (value)` to select the group of existing pods which pods will be taken into consideration for the incoming pod's pod (anti) affinity. Keys that don't exist in the incoming pod labels will be ignored. The default value is empty. The same key is forbidden to exist in both matchLabelKeys and labelSelector. Also, matchLabelKeys cannot be set when labelSelector isn't set.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "mismatchLabelKeys": {
        "description": "MismatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration. The keys are used to lookup values from the incoming pod labels, those key-value labels are merged with `labelSelector` as `key notin (value)` to select the group of existing pods which pods will be taken into consideration for the incoming pod's pod (anti) affinity. Keys that don't exist in the incoming pod labels will be ignored. The default value is empty. The same key is forbidden to exist in both mismatchLabelKeys and labelSelector. Also, mismatchLabelKeys cannot be set when labelSelector isn't set.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "namespaceSelector": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"
          }
        ],
        "description": "A label query over the set of namespaces that the term applies to. The term is applied to the union of the namespaces selected by this field and the ones listed in the namespaces field. null selector and null or empty namespaces list means \"this pod's namespace\". An empty selector ({}) matches all namespaces."
      },
      "namespaces": {
        "description": "namespaces specifies a static list of namespace names that the term applies to. The term is applied to the union of the namespaces listed in this field and the ones selected by namespaceSelector. null or empty namespaces list and null namespaceSelector means \"this pod's namespace\".",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "topologyKey": {
        "default": "",
        "description": "This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces, where co-located is defined as running on a node whose value of the label with key topologyKey matches that of any node on which any of the selected pods is running. Empty topologyKey is not allowed.",
        "type": "string"
      }
    },
    "required": [
      "topologyKey"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodAntiAffinity": {
    "description": "Pod anti affinity is a group of inter pod anti affinity scheduling rules.",
    "properties": {
      "preferredDuringSchedulingIgnoredDuringExecution": {
        "description": "The scheduler will prefer to schedule pods to nodes that satisfy the anti-affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions. The node that is most preferred is the one with the greatest sum of weights, i.e. for each node that meets all of the scheduling requirements (resource request, requiredDuringScheduling anti-affinity expressions, etc.), compute a sum by iterating through the elements of this field and adding \"weight\" to the sum if the node has pods which matches the corresponding podAffinityTerm; the node(s) with the highest sum are the most preferred.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.WeightedPodAffinityTerm"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "requiredDuringSchedulingIgnoredDuringExecution": {
        "description": "If the anti-affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node. If the anti-affinity requirements specified by this field cease to be met at some point during pod execution (e.g. due to a pod label update), the system may or may not try to eventually evict the pod from its node. When there are multiple elements, the lists of nodes corresponding to each podAffinityTerm are intersected, i.e. all terms must be satisfied.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodAffinityTerm"
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
  "io.k8s.api.core.v1.PodCondition": {
    "description": "PodCondition contains details for the current condition of this pod.",
    "properties": {
      "lastProbeTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "Last time we probed the condition."
      },
      "lastTransitionTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "Last time the condition transitioned from one status to another."
      },
      "message": {
        "description": "Human-readable message indicating details about last transition.",
        "type": "string"
      },
      "observedGeneration": {
        "description": "If set, this represents the .metadata.generation that the pod condition was set based upon. This is an alpha field. Enable PodObservedGenerationTracking to be able to use this field.",
        "format": "int64",
        "type": "integer"
      },
      "reason": {
        "description": "Unique, one-word, CamelCase reason for the condition's last transition.",
        "type": "string"
      },
      "status": {
        "default": "",
        "description": "Status is the status of the condition. Can be True, False, Unknown. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions",
        "type": "string"
      },
      "type": {
        "default": "",
        "description": "Type is the type of the condition. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions",
        "type": "string"
      }
    },
    "required": [
      "type",
      "status"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodDNSConfig": {
    "description": "PodDNSConfig defines the DNS parameters of a pod in addition to those generated from DNSPolicy.",
    "properties": {
      "nameservers": {
        "description": "A list of DNS name server IP addresses. This will be appended to the base nameservers generated from DNSPolicy. Duplicated nameservers will be removed.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "options": {
        "description": "A list of DNS resolver options. This will be merged with the base options generated from DNSPolicy. Duplicated entries will be removed. Resolution options given in Options will override those that appear in the base DNSPolicy.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodDNSConfigOption"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "searches": {
        "description": "A list of DNS search domains for host-name lookup. This will be appended to the base search paths generated from DNSPolicy. Duplicated search paths will be removed.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.PodDNSConfigOption": {
    "description": "PodDNSConfigOption defines DNS resolver options of a pod.",
    "properties": {
      "name": {
        "description": "Name is this DNS resolver option's name. Required.",
        "type": "string"
      },
      "value": {
        "description": "Value is this DNS resolver option's value.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.PodIP": {
    "description": "PodIP represents a single IP address allocated to the pod.",
    "properties": {
      "ip": {
        "default": "",
        "description": "IP is the IP address assigned to the pod",
        "type": "string"
      }
    },
    "required": [
      "ip"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodList": {
    "description": "PodList is a list of Pods.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "List of pods. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Pod"
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "PodList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.PodOS": {
    "description": "PodOS defines the OS parameters of a pod.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name is the name of the operating system. The currently supported values are linux and windows. Additional value may be defined in future and can be one of: https://github.com/opencontainers/runtime-spec/blob/master/config.md#platform-specific-configuration Clients should expect to handle additional values and treat unrecognized values in this field as os: null",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodReadinessGate": {
    "description": "PodReadinessGate contains the reference to a pod condition",
    "properties": {
      "conditionType": {
        "default": "",
        "description": "ConditionType refers to a condition in the pod's condition list with matching type.",
        "type": "string"
      }
    },
    "required": [
      "conditionType"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodResourceClaim": {
    "description": "PodResourceClaim references exactly one ResourceClaim, either directly or by naming a ResourceClaimTemplate which is then turned into a ResourceClaim for the pod.\n\nIt adds a name to it that uniquely identifies the ResourceClaim inside the Pod. Containers that need access to the ResourceClaim reference it with this name.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name uniquely identifies this resource claim inside the pod. This must be a DNS_LABEL.",
        "type": "string"
      },
      "resourceClaimName": {
        "description": "ResourceClaimName is the name of a ResourceClaim object in the same namespace as this pod.\n\nExactly one of ResourceClaimName and ResourceClaimTemplateName must be set.",
        "type": "string"
      },
      "resourceClaimTemplateName": {
        "description": "ResourceClaimTemplateName is the name of a ResourceClaimTemplate object in the same namespace as this pod.\n\nThe template will be used to create a new ResourceClaim, which will be bound to this pod. When this pod is deleted, the ResourceClaim will also be deleted. The pod name and resource name, along with a generated component, will be used to form a unique name for the ResourceClaim, which will be recorded in pod.status.resourceClaimStatuses.\n\nThis field is immutable and no changes will be made to the corresponding ResourceClaim by the control plane after creating the ResourceClaim.\n\nExactly one of ResourceClaimName and ResourceClaimTemplateName must be set.",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodResourceClaimStatus": {
    "description": "PodResourceClaimStatus is stored in the PodStatus for each PodResourceClaim which references a ResourceClaimTemplate. It stores the generated name for the corresponding ResourceClaim.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name uniquely identifies this resource claim inside the pod. This must match the name of an entry in pod.spec.resourceClaims, which implies that the string must be a DNS_LABEL.",
        "type": "string"
      },
      "resourceClaimName": {
        "description": "ResourceClaimName is the name of the ResourceClaim that was generated for the Pod in the namespace of the Pod. If this is unset, then generating a ResourceClaim was not necessary. The pod.spec.resourceClaims entry can be ignored in this case.",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodSchedulingGate": {
    "description": "PodSchedulingGate is associated to a Pod to guard its scheduling.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name of the scheduling gate. Each scheduling gate must have a unique name field.",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodSecurityContext": {
    "description": "PodSecurityContext holds pod-level security attributes and common container settings. Some fields are also present in container.securityContext.  Field values of container.securityContext take precedence over field values of PodSecurityContext.",
    "properties": {
      "appArmorProfile": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.AppArmorProfile"
          }
        ],
        "description": "appArmorProfile is the AppArmor options to use by the containers in this pod. Note that this field cannot be set when spec.os.name is windows."
      },
      "fsGroup": {
        "description": "A special supplemental group that applies to all containers in a pod. Some volume types allow the Kubelet to change the ownership of that volume to be owned by the pod:\n\n1. The owning GID will be the FSGroup 2. The setgid bit is set (new files created in the volume will be owned by FSGroup) 3. The permission bits are OR'd with rw-rw----\n\nIf unset, the Kubelet will not modify the ownership and permissions of any volume. Note that this field cannot be set when spec.os.name is windows.",
        "format": "int64",
        "type": "integer"
      },
      "fsGroupChangePolicy": {
        "description": "fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod. This field will only apply to volume types which support fsGroup based ownership(and permissions). It will have no effect on ephemeral volume types such as: secret, configmaps and emptydir. Valid values are \"OnRootMismatch\" and \"Always\". If not specified, \"Always\" is used. Note that this field cannot be set when spec.os.name is windows.",
        "type": "string"
      },
      "runAsGroup": {
        "description": "The GID to run the entrypoint of the container process. Uses runtime default if unset. May also be set in SecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence for that container. Note that this field cannot be set when spec.os.name is windows.",
        "format": "int64",
        "type": "integer"
      },
      "runAsNonRoot": {
        "description": "Indicates that the container must run as a non-root user. If true, the Kubelet will validate the image at runtime to ensure that it does not run as UID 0 (root) and fail to start the container if it does. If unset or false, no such validation will be performed. May also be set in SecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.",
        "type": "boolean"
      },
      "runAsUser": {
        "description": "The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified. May also be set in SecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence for that container. Note that this field cannot be set when spec.os.name is windows.",
        "format": "int64",
        "type": "integer"
      },
      "seLinuxChangePolicy": {
        "description": "seLinuxChangePolicy defines how the container's SELinux label is applied to all volumes used by the Pod. It has no effect on nodes that do not support SELinux or to volumes does not support SELinux. Valid values are \"MountOption\" and \"Recursive\".\n\n\"Recursive\" means relabeling of all files on all Pod volumes by the container runtime. This may be slow for large volumes, but allows mixing privileged and unprivileged Pods sharing the same volume on the same node.\n\n\"MountOption\" mounts all eligible Pod volumes with `-o context` mount option. This requires all Pods that share the same volume to use the same SELinux label. It is not possible to share the same volume among privileged and unprivileged Pods. Eligible volumes are in-tree FibreChannel and iSCSI volumes, and all CSI volumes whose CSI driver announces SELinux support by setting spec.seLinuxMount: true in their CSIDriver instance. Other volumes are always re-labelled recursively. \"MountOption\" value is allowed only when SELinuxMount feature gate is enabled.\n\nIf not specified and SELinuxMount feature gate is enabled, \"MountOption\" is used. If not specified and SELinuxMount feature gate is disabled, \"MountOption\" is used for ReadWriteOncePod volumes and \"Recursive\" for all other volumes.\n\nThis field affects only Pods that have SELinux label set, either in PodSecurityContext or in SecurityContext of all containers.\n\nAll Pods that use the same volume should use the same seLinuxChangePolicy, otherwise some pods can get stuck in ContainerCreating state. Note that this field cannot be set when spec.os.name is windows.",
        "type": "string"
      },
      "seLinuxOptions": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SELinuxOptions"
          }
        ],
        "description": "The SELinux context to be applied to all containers. If unspecified, the container runtime will allocate a random SELinux context for each container.  May also be set in SecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence for that container. Note that this field cannot be set when spec.os.name is windows."
      },
      "seccompProfile": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SeccompProfile"
          }
        ],
        "description": "The seccomp options to use by the containers in this pod. Note that this field cannot be set when spec.os.name is windows."
      },
      "supplementalGroups": {
        "description": "A list of groups applied to the first process run in each container, in addition to the container's primary GID and fsGroup (if specified).  If the SupplementalGroupsPolicy feature is enabled, the supplementalGroupsPolicy field determines whether these are in addition to or instead of any group memberships defined in the container image. If unspecified, no additional groups are added, though group memberships defined in the container image may still be used, depending on the supplementalGroupsPolicy field. Note that this field cannot be set when spec.os.name is windows.",
        "items": {
          "default": 0,
          "format": "int64",
          "type": "integer"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "supplementalGroupsPolicy": {
        "description": "Defines how supplemental groups of the first container processes are calculated. Valid values are \"Merge\" and \"Strict\". If not specified, \"Merge\" is used. (Alpha) Using the field requires the SupplementalGroupsPolicy feature gate to be enabled and the container runtime must implement support for this feature. Note that this field cannot be set when spec.os.name is windows.",
        "type": "string"
      },
      "sysctls": {
        "description": "Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported sysctls (by the container runtime) might fail to launch. Note that this field cannot be set when spec.os.name is windows.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Sysctl"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "windowsOptions": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.WindowsSecurityContextOptions"
          }
        ],
        "description": "The Windows specific settings applied to all containers. If unspecified, the options within a container's SecurityContext will be used. If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence. Note that this field cannot be set when spec.os.name is linux."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.PodSpec": {
    "description": "PodSpec is a description of a pod.",
    "properties": {
      "activeDeadlineSeconds": {
        "description": "Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers. Value must be a positive integer.",
        "format": "int64",
        "type": "integer"
      },
      "affinity": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Affinity"
          }
        ],
        "description": "If specified, the pod's scheduling constraints"
      },
      "automountServiceAccountToken": {
        "description": "AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.",
        "type": "boolean"
      },
      "containers": {
        "description": "List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Container"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "dnsConfig": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodDNSConfig"
          }
        ],
        "description": "Specifies the DNS parameters of a pod. Parameters specified here will be merged to the generated DNS configuration based on DNSPolicy."
      },
      "dnsPolicy": {
        "description": "Set DNS policy for the pod. Defaults to \"ClusterFirst\". Valid values are 'ClusterFirstWithHostNet', 'ClusterFirst', 'Default' or 'None'. DNS parameters given in DNSConfig will be merged with the policy selected with DNSPolicy. To have DNS options set along with hostNetwork, you have to specify DNS policy explicitly to 'ClusterFirstWithHostNet'.",
        "type": "string"
      },
      "enableServiceLinks": {
        "description": "EnableServiceLinks indicates whether information about services should be injected into pod's environment variables, matching the syntax of Docker links. Optional: Defaults to true.",
        "type": "boolean"
      },
      "ephemeralContainers": {
        "description": "List of ephemeral containers run in this pod. Ephemeral containers may be run in an existing pod to perform user-initiated actions such as debugging. This list cannot be specified when creating a pod, and it cannot be modified by updating the pod spec. In order to add an ephemeral container to an existing pod, use the pod's ephemeralcontainers subresource.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.EphemeralContainer"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "hostAliases": {
        "description": "HostAliases is an optional list of hosts and IPs that will be injected into the pod's hosts file if specified.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.HostAlias"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "ip"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "ip",
        "x-kubernetes-patch-strategy": "merge"
      },
      "hostIPC": {
        "description": "Use the host's ipc namespace. Optional: Default to false.",
        "type": "boolean"
      },
      "hostNetwork": {
        "description": "Host networking requested for this pod. Use the host's network namespace. If this option is set, the ports that will be used must be specified. Default to false.",
        "type": "boolean"
      },
      "hostPID": {
        "description": "Use the host's pid namespace. Optional: Default to false.",
        "type": "boolean"
      },
      "hostUsers": {
        "description": "Use the host's user namespace. Optional: Default to true. If set to true or not present, the pod will be run in the host user namespace, useful for when the pod needs a feature only available to the host user namespace, such as loading a kernel module with CAP_SYS_MODULE. When set to false, a new userns is created for the pod. Setting false is useful for mitigating container breakout vulnerabilities even allowing users to run their containers as root without actually having root privileges on the host. This field is alpha-level and is only honored by servers that enable the UserNamespacesSupport feature.",
        "type": "boolean"
      },
      "hostname": {
        "description": "Specifies the hostname of the Pod If not specified, the pod's hostname will be set to a system-defined value.",
        "type": "string"
      },
      "imagePullSecrets": {
        "description": "ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec. If specified, these secrets will be passed to individual puller implementations for them to use. More info: https://kubernetes.io/docs/concepts/containers/images#specifying-imagepullsecrets-on-a-pod",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "initContainers": {
        "description": "List of initialization containers belonging to the pod. Init containers are executed in order prior to containers being started. If any init container fails, the pod is considered to have failed and is handled according to its restartPolicy. The name for an init container or normal container must be unique among all containers. Init containers may not have Lifecycle actions, Readiness probes, Liveness probes, or Startup probes. The resourceRequirements of an init container are taken into account during scheduling by finding the highest request/limit for each resource type, and then using the max of that value or the sum of the normal containers. Limits are applied to init containers in a similar fashion. Init containers cannot currently be added or removed. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/init-containers/",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Container"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "nodeName": {
        "description": "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename",
        "type": "string"
      },
      "nodeSelector": {
        "additionalProperties": {
          "default": "",
          "type": "string"
        },
        "description": "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
        "type": "object",
        "x-kubernetes-map-type": "atomic"
      },
      "os": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodOS"
          }
        ],
        "description": "Specifies the OS of the containers in the pod. Some pod and container fields are restricted if this is set.\n\nIf the OS field is set to linux, the following fields must be unset: -securityContext.windowsOptions\n\nIf the OS field is set to windows, following fields must be unset: - spec.hostPID - spec.hostIPC - spec.hostUsers - spec.securityContext.appArmorProfile - spec.securityContext.seLinuxOptions - spec.securityContext.seccompProfile - spec.securityContext.fsGroup - spec.securityContext.fsGroupChangePolicy - spec.securityContext.sysctls - spec.shareProcessNamespace - spec.securityContext.runAsUser - spec.securityContext.runAsGroup - spec.securityContext.supplementalGroups - spec.securityContext.supplementalGroupsPolicy - spec.containers[*].securityContext.appArmorProfile - spec.containers[*].securityContext.seLinuxOptions - spec.containers[*].securityContext.seccompProfile - spec.containers[*].securityContext.capabilities - spec.containers[*].securityContext.readOnlyRootFilesystem - spec.containers[*].securityContext.privileged - spec.containers[*].securityContext.allowPrivilegeEscalation - spec.containers[*].securityContext.procMount - spec.containers[*].securityContext.runAsUser - spec.containers[*].securityContext.runAsGroup"
      },
      "overhead": {
        "additionalProperties": {
          "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
        },
        "description": "Overhead represents the resource overhead associated with running a pod for a given RuntimeClass. This field will be autopopulated at admission time by the RuntimeClass admission controller. If the RuntimeClass admission controller is enabled, overhead must not be set in Pod create requests. The RuntimeClass admission controller will reject Pod create requests which have the overhead already set. If RuntimeClass is configured and selected in the PodSpec, Overhead will be set to the value defined in the corresponding RuntimeClass, otherwise it will remain unset and treated as zero. More info: https://git.k8s.io/enhancements/keps/sig-node/688-pod-overhead/README.md",
        "type": "object"
      },
      "preemptionPolicy": {
        "description": "PreemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
        "type": "string"
      },
      "priority": {
        "description": "The priority value. Various system components use this field to find the priority of the pod. When Priority Admission Controller is enabled, it prevents users from setting this field. The admission controller populates this field from PriorityClassName. The higher the value, the higher the priority.",
        "format": "int32",
        "type": "integer"
      },
      "priorityClassName": {
        "description": "If specified, indicates the pod's priority. \"system-node-critical\" and \"system-cluster-critical\" are two special keywords which indicate the highest priorities with the former being the highest priority. Any other name must be defined by creating a PriorityClass object with that name. If not specified, the pod priority will be default or zero if there is no default.",
        "type": "string"
      },
      "readinessGates": {
        "description": "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodReadinessGate"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "resourceClaims": {
        "description": "ResourceClaims defines which ResourceClaims must be allocated and reserved before the Pod is allowed to start. The resources will be made available to those containers which consume them by name.\n\nThis is an alpha field and requires enabling the DynamicResourceAllocation feature gate.\n\nThis field is immutable.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodResourceClaim"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge,retainKeys"
      },
      "resources": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceRequirements"
          }
        ],
        "description": "Resources is the total amount of CPU and Memory resources required by all containers in the pod. It supports specifying Requests and Limits for \"cpu\" and \"memory\" resource names only. ResourceClaims are not supported.\n\nThis field enables fine-grained control over resource allocation for the entire pod, allowing resource sharing among containers in a pod.\n\nThis is an alpha field and requires enabling the PodLevelResources feature gate."
      },
      "restartPolicy": {
        "description": "Restart policy for all containers within the pod. One of Always, OnFailure, Never. In some contexts, only a subset of those values may be permitted. Default to Always. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy",
        "type": "string"
      },
      "runtimeClassName": {
        "description": "RuntimeClassName refers to a RuntimeClass object in the node.k8s.io group, which should be used to run this pod.  If no RuntimeClass resource matches the named class, the pod will not be run. If unset or empty, the \"legacy\" RuntimeClass will be used, which is an implicit class with an empty definition that uses the default runtime handler. More info: https://git.k8s.io/enhancements/keps/sig-node/585-runtime-class",
        "type": "string"
      },
      "schedulerName": {
        "description": "If specified, the pod will be dispatched by specified scheduler. If not specified, the pod will be dispatched by default scheduler.",
        "type": "string"
      },
      "schedulingGates": {
        "description": "SchedulingGates is an opaque list of values that if specified will block scheduling the pod. If schedulingGates is not empty, the pod will stay in the SchedulingGated state and the scheduler will not attempt to schedule the pod.\n\nSchedulingGates can only be set at pod creation time, and be removed only afterwards.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodSchedulingGate"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      },
      "securityContext": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodSecurityContext"
          }
        ],
        "description": "SecurityContext holds pod-level security attributes and common container settings. Optional: Defaults to empty.  See type description for default values of each field."
      },
      "serviceAccount": {
        "description": "DeprecatedServiceAccount is a deprecated alias for ServiceAccountName. Deprecated: Use serviceAccountName instead.",
        "type": "string"
      },
      "serviceAccountName": {
        "description": "ServiceAccountName is the name of the ServiceAccount to use to run this pod. More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/",
        "type": "string"
      },
      "setHostnameAsFQDN": {
        "description": "If true the pod's hostname will be configured as the pod's FQDN, rather than the leaf name (the default). In Linux containers, this means setting the FQDN in the hostname field of the kernel (the nodename field of struct utsname). In Windows containers, this means setting the registry value of hostname for the registry key HKEY_LOCAL_MACHINE\\\\SYSTEM\\\\CurrentControlSet\\\\Services\\\\Tcpip\\\\Parameters to FQDN. If a pod does not have FQDN, this has no effect. Default to false.",
        "type": "boolean"
      },
      "shareProcessNamespace": {
        "description": "Share a single process namespace between all of the containers in a pod. When this is set containers will be able to view and signal processes from other containers in the same pod, and the first process in each container will not be assigned PID 1. HostPID and ShareProcessNamespace cannot both be set. Optional: Default to false.",
        "type": "boolean"
      },
      "subdomain": {
        "description": "If specified, the fully qualified Pod hostname will be \"<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>\". If not specified, the pod will not have a domainname at all.",
        "type": "string"
      },
      "terminationGracePeriodSeconds": {
        "description": "Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). If this value is nil, the default grace period will be used instead. The grace period is the duration in seconds after the processes running in the pod are sent a termination signal and the time when the processes are forcibly halted with a kill signal. Set this value longer than the expected cleanup time for your process. Defaults to 30 seconds.",
        "format": "int64",
        "type": "integer"
      },
      "tolerations": {
        "description": "If specified, the pod's tolerations.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Toleration"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "topologySpreadConstraints": {
        "description": "TopologySpreadConstraints describes how a group of pods ought to spread across topology domains. Scheduler will schedule pods in a way which abides by the constraints. All topologySpreadConstraints are ANDed.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.TopologySpreadConstraint"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "topologyKey",
          "whenUnsatisfiable"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "topologyKey",
        "x-kubernetes-patch-strategy": "merge"
      },
      "volumes": {
        "description": "List of volumes that can be mounted by containers belonging to the pod. More info: https://kubernetes.io/docs/concepts/storage/volumes",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Volume"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge,retainKeys"
      }
    },
    "required": [
      "containers"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PodStatus": {
    "description": "PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.",
    "properties": {
      "conditions": {
        "description": "Current service state of pod. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodCondition"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "type"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "type",
        "x-kubernetes-patch-strategy": "merge"
      },
      "containerStatuses": {
        "description": "Statuses of containers in this pod. Each container in the pod should have at most one status in this list, and all statuses should be for containers in the pod. However this is not enforced. If a status for a non-existent container is present in the list, or the list has duplicate names, the behavior of various Kubernetes components is not defined and those statuses might be ignored. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-and-container-status",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerStatus"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "ephemeralContainerStatuses": {
        "description": "Statuses for any ephemeral containers that have run in this pod. Each ephemeral container in the pod should have at most one status in this list, and all statuses should be for containers in the pod. However this is not enforced. If a status for a non-existent container is present in the list, or the list has duplicate names, the behavior of various Kubernetes components is not defined and those statuses might be ignored. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-and-container-status",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerStatus"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "hostIP": {
        "description": "hostIP holds the IP address of the host to which the pod is assigned. Empty if the pod has not started yet. A pod can be assigned to a node that has a problem in kubelet which in turns mean that HostIP will not be updated even if there is a node is assigned to pod",
        "type": "string"
      },
      "hostIPs": {
        "description": "hostIPs holds the IP addresses allocated to the host. If this field is specified, the first entry must match the hostIP field. This list is empty if the pod has not started yet. A pod can be assigned to a node that has a problem in kubelet which in turns means that HostIPs will not be updated even if there is a node is assigned to this pod.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.HostIP"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic",
        "x-kubernetes-patch-merge-key": "ip",
        "x-kubernetes-patch-strategy": "merge"
      },
      "initContainerStatuses": {
        "description": "Statuses of init containers in this pod. The most recent successful non-restartable init container will have ready = true, the most recently started container will have startTime set. Each init container in the pod should have at most one status in this list, and all statuses should be for containers in the pod. However this is not enforced. If a status for a non-existent container is present in the list, or the list has duplicate names, the behavior of various Kubernetes components is not defined and those statuses might be ignored. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-and-container-status",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ContainerStatus"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "message": {
        "description": "A human readable message indicating details about why the pod is in this condition.",
        "type": "string"
      },
      "nominatedNodeName": {
        "description": "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
        "type": "string"
      },
      "observedGeneration": {
        "description": "If set, this represents the .metadata.generation that the pod status was set based upon. This is an alpha field. Enable PodObservedGenerationTracking to be able to use this field.",
        "format": "int64",
        "type": "integer"
      },
      "phase": {
        "description": "The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle. The conditions array, the reason and message fields, and the individual container status arrays contain more detail about the pod's status. There are five possible phase values:\n\nPending: The pod has been accepted by the Kubernetes system, but one or more of the container images has not been created. This includes time before being scheduled as well as time spent downloading images over the network, which could take a while. Running: The pod has been bound to a node, and all of the containers have been created. At least one container is still running, or is in the process of starting or restarting. Succeeded: All containers in the pod have terminated in success, and will not be restarted. Failed: All containers in the pod have terminated, and at least one container has terminated in failure. The container either exited with non-zero status or was terminated by the system. Unknown: For some reason the state of the pod could not be obtained, typically due to an error in communicating with the host of the pod.\n\nMore info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-phase",
        "type": "string"
      },
      "podIP": {
        "description": "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
        "type": "string"
      },
      "podIPs": {
        "description": "podIPs holds the IP addresses allocated to the pod. If this field is specified, the 0th entry must match the podIP field. Pods may be allocated at most 1 value for each of IPv4 and IPv6. This list is empty if no IPs have been allocated yet.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodIP"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "ip"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "ip",
        "x-kubernetes-patch-strategy": "merge"
      },
      "qosClass": {
        "description": "The Quality of Service (QOS) classification assigned to the pod based on resource requirements See PodQOSClass type for available QOS classes More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-qos/#quality-of-service-classes",
        "type": "string"
      },
      "reason": {
        "description": "A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'",
        "type": "string"
      },
      "resize": {
        "description": "Status of resources resize desired for pod's containers. It is empty if no resources resize is pending. Any changes to container resources will automatically set this to \"Proposed\" Deprecated: Resize status is moved to two pod conditions PodResizePending and PodResizeInProgress. PodResizePending will track states where the spec has been resized, but the Kubelet has not yet allocated the resources. PodResizeInProgress will track in-progress resizes, and should be present whenever allocated resources != acknowledged resources.",
        "type": "string"
      },
      "resourceClaimStatuses": {
        "description": "Status of resource claims.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.PodResourceClaimStatus"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge,retainKeys"
      },
      "startTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "RFC 3339 date and time at which the object was acknowledged by the Kubelet. This is before the Kubelet pulled the container image(s) for the pod."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.PortStatus": {
    "description": "PortStatus represents the error condition of a service port",
    "properties": {
      "error": {
        "description": "Error is to record the problem with the service port The format of the error shall comply with the following rules: - built-in error values shall be specified in this file and those shall use\n  CamelCase names\n- cloud provider specific error values must have names that comply with the\n  format foo.example.com/CamelCase.",
        "type": "string"
      },
      "port": {
        "default": 0,
        "description": "Port is the port number of the service port of which status is recorded here",
        "format": "int32",
        "type": "integer"
      },
      "protocol": {
        "default": "",
        "description": "Protocol is the protocol of the service port of which status is recorded here The supported values are: \"TCP\", \"UDP\", \"SCTP\"",
        "type": "string"
      }
    },
    "required": [
      "port",
      "protocol"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PortworxVolumeSource": {
    "description": "PortworxVolumeSource represents a Portworx volume resource.",
    "properties": {
      "fsType": {
        "description": "fSType represents the filesystem type to mount Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\". Implicitly inferred to be \"ext4\" if unspecified.",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.",
        "type": "boolean"
      },
      "volumeID": {
        "default": "",
        "description": "volumeID uniquely identifies a Portworx volume",
        "type": "string"
      }
    },
    "required": [
      "volumeID"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.PreferredSchedulingTerm": {
    "description": "An empty preferred scheduling term matches all objects with implicit weight 0 (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).",
    "properties": {
      "preference": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.NodeSelectorTerm"
          }
        ],
        "default": {},
        "description": "A node selector term, associated with the corresponding weight."
      },
      "weight": {
        "default": 0,
        "description": "Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.",
        "format": "int32",
        "type": "integer"
      }
    },
    "required": [
      "weight",
      "preference"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Probe": {
    "description": "Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.",
    "properties": {
      "exec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ExecAction"
          }
        ],
        "description": "Exec specifies a command to execute in the container."
      },
      "failureThreshold": {
        "description": "Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1.",
        "format": "int32",
        "type": "integer"
      },
      "grpc": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.GRPCAction"
          }
        ],
        "description": "GRPC specifies a GRPC HealthCheckRequest."
      },
      "httpGet": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.HTTPGetAction"
          }
        ],
        "description": "HTTPGet specifies an HTTP GET request to perform."
      },
      "initialDelaySeconds": {
        "description": "Number of seconds after the container has started before liveness probes are initiated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
        "format": "int32",
        "type": "integer"
      },
      "periodSeconds": {
        "description": "How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.",
        "format": "int32",
        "type": "integer"
      },
      "successThreshold": {
        "description": "Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.",
        "format": "int32",
        "type": "integer"
      },
      "tcpSocket": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.TCPSocketAction"
          }
        ],
        "description": "TCPSocket specifies a connection to a TCP port."
      },
      "terminationGracePeriodSeconds": {
        "description": "Optional duration in seconds the pod needs to terminate gracefully upon probe failure. The grace period is the duration in seconds after the processes running in the pod are sent a termination signal and the time when the processes are forcibly halted with a kill signal. Set this value longer than the expected cleanup time for your process. If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this value overrides the value provided by the pod spec. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate. Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.",
        "format": "int64",
        "type": "integer"
      },
      "timeoutSeconds": {
        "description": "Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
        "format": "int32",
        "type": "integer"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ProjectedVolumeSource": {
    "description": "Represents a projected volume source",
    "properties": {
      "defaultMode": {
        "description": "defaultMode are the mode bits used to set permissions on created files by default. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits. Directories within the path are not affected by this setting. This might be in conflict with other options that affect the file mode, like fsGroup, and the result can be other mode bits set.",
        "format": "int32",
        "type": "integer"
      },
      "sources": {
        "description": "sources is the list of volume projections. Each entry in this list handles one source.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.VolumeProjection"
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
  "io.k8s.api.core.v1.QuobyteVolumeSource": {
    "description": "Represents a Quobyte mount that lasts the lifetime of a pod. Quobyte volumes do not support ownership management or SELinux relabeling.",
    "properties": {
      "group": {
        "description": "group to map volume access to Default is no group",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly here will force the Quobyte volume to be mounted with read-only permissions. Defaults to false.",
        "type": "boolean"
      },
      "registry": {
        "default": "",
        "description": "registry represents a single or multiple Quobyte Registry services specified as a string as host:port pair (multiple entries are separated with commas) which acts as the central registry for volumes",
        "type": "string"
      },
      "tenant": {
        "description": "tenant owning the given Quobyte volume in the Backend Used with dynamically provisioned Quobyte volumes, value is set by the plugin",
        "type": "string"
      },
      "user": {
        "description": "user to map volume access to Defaults to serivceaccount user",
        "type": "string"
      },
      "volume": {
        "default": "",
        "description": "volume is a string that references an already created Quobyte volume by name.",
        "type": "string"
      }
    },
    "required": [
      "registry",
      "volume"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.RBDVolumeSource": {
    "description": "Represents a Rados Block Device mount that lasts the lifetime of a pod. RBD volumes support ownership management and SELinux relabeling.",
    "properties": {
      "fsType": {
        "description": "fsType is the filesystem type of the volume that you want to mount. Tip: Ensure that the filesystem type is supported by the host operating system. Examples: \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified. More info: https://kubernetes.io/docs/concepts/storage/volumes#rbd",
        "type": "string"
      },
      "image": {
        "default": "",
        "description": "image is the rados image name. More info: https://examples.k8s.io/volumes/rbd/README.md#how-to-use-it",
        "type": "string"
      },
      "keyring": {
        "default": "/etc/ceph/keyring",
        "description": "keyring is the path to key ring for RBDUser. Default is /etc/ceph/keyring. More info: https://examples.k8s.io/volumes/rbd/README.md#how-to-use-it",
        "type": "string"
      },
      "monitors": {
        "description": "monitors is a collection of Ceph monitors. More info: https://examples.k8s.io/volumes/rbd/README.md#how-to-use-it",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "pool": {
        "default": "rbd",
        "description": "pool is the rados pool name. Default is rbd. More info: https://examples.k8s.io/volumes/rbd/README.md#how-to-use-it",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false. More info: https://examples.k8s.io/volumes/rbd/README.md#how-to-use-it",
        "type": "boolean"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "secretRef is name of the authentication secret for RBDUser. If provided overrides keyring. Default is nil. More info: https://examples.k8s.io/volumes/rbd/README.md#how-to-use-it"
      },
      "user": {
        "default": "admin",
        "description": "user is the rados user name. Default is admin. More info: https://examples.k8s.io/volumes/rbd/README.md#how-to-use-it",
        "type": "string"
      }
    },
    "required": [
      "monitors",
      "image"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ResourceClaim": {
    "description": "ResourceClaim references one entry in PodSpec.ResourceClaims.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used. It makes that resource available inside a container.",
        "type": "string"
      },
      "request": {
        "description": "Request is the name chosen for a request in the referenced claim. If empty, everything from the claim is made available, otherwise only the result of this request.",
        "type": "string"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ResourceFieldSelector": {
    "description": "ResourceFieldSelector represents container resources (cpu, memory) and their output format",
    "properties": {
      "containerName": {
        "description": "Container name: required for volumes, optional for env vars",
        "type": "string"
      },
      "divisor": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
          }
        ],
        "description": "Specifies the output format of the exposed resources, defaults to \"1\""
      },
      "resource": {
        "default": "",
        "description": "Required: resource to select",
        "type": "string"
      }
    },
    "required": [
      "resource"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.ResourceHealth": {
    "description": "ResourceHealth represents the health of a resource. It has the latest device health information. This is a part of KEP https://kep.k8s.io/4680.",
    "properties": {
      "health": {
        "description": "Health of the resource. can be one of:\n - Healthy: operates as normal\n - Unhealthy: reported unhealthy. We consider this a temporary health issue\n              since we do not have a mechanism today to distinguish\n              temporary and permanent issues.\n - Unknown: The status cannot be determined.\n            For example, Device Plugin got unregistered and hasn't been re-registered since.\n\nIn future we may want to introduce the PermanentlyUnhealthy Status.",
        "type": "string"
      },
      "resourceID": {
        "default": "",
        "description": "ResourceID is the unique identifier of the resource. See the ResourceID type for more information.",
        "type": "string"
      }
    },
    "required": [
      "resourceID"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ResourceRequirements": {
    "description": "ResourceRequirements describes the compute resource requirements.",
    "properties": {
      "claims": {
        "description": "Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container.\n\nThis is an alpha field and requires enabling the DynamicResourceAllocation feature gate.\n\nThis field is immutable. It can only be set for containers.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceClaim"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map"
      },
      "limits": {
        "additionalProperties": {
          "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
        },
        "description": "Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
        "type": "object"
      },
      "requests": {
        "additionalProperties": {
          "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
        },
        "description": "Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
        "type": "object"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ResourceStatus": {
    "description": "ResourceStatus represents the status of a single resource allocated to a Pod.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name of the resource. Must be unique within the pod and in case of non-DRA resource, match one of the resources from the pod spec. For DRA resources, the value must be \"claim:<claim_name>/<request>\". When this status is reported about a container, the \"claim_name\" and \"request\" must match one of the claims of this container.",
        "type": "string"
      },
      "resources": {
        "description": "List of unique resources health. Each element in the list contains an unique resource ID and its health. At a minimum, for the lifetime of a Pod, resource ID must uniquely identify the resource allocated to the Pod on the Node. If other Pod on the same Node reports the status with the same resource ID, it must be the same resource they share. See ResourceID type definition for a specific format it has in various use cases.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ResourceHealth"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "resourceID"
        ],
        "x-kubernetes-list-type": "map"
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.SELinuxOptions": {
    "description": "SELinuxOptions are the labels to be applied to the container",
    "properties": {
      "level": {
        "description": "Level is SELinux level label that applies to the container.",
        "type": "string"
      },
      "role": {
        "description": "Role is a SELinux role label that applies to the container.",
        "type": "string"
      },
      "type": {
        "description": "Type is a SELinux type label that applies to the container.",
        "type": "string"
      },
      "user": {
        "description": "User is a SELinux user label that applies to the container.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ScaleIOVolumeSource": {
    "description": "ScaleIOVolumeSource represents a persistent ScaleIO volume",
    "properties": {
      "fsType": {
        "default": "xfs",
        "description": "fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\", \"ntfs\". Default is \"xfs\".",
        "type": "string"
      },
      "gateway": {
        "default": "",
        "description": "gateway is the host address of the ScaleIO API Gateway.",
        "type": "string"
      },
      "protectionDomain": {
        "description": "protectionDomain is the name of the ScaleIO Protection Domain for the configured storage.",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly Defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.",
        "type": "boolean"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "secretRef references to the secret for ScaleIO user and other sensitive information. If this is not provided, Login operation will fail."
      },
      "sslEnabled": {
        "description": "sslEnabled Flag enable/disable SSL communication with Gateway, default false",
        "type": "boolean"
      },
      "storageMode": {
        "default": "ThinProvisioned",
        "description": "storageMode indicates whether the storage for a volume should be ThickProvisioned or ThinProvisioned. Default is ThinProvisioned.",
        "type": "string"
      },
      "storagePool": {
        "description": "storagePool is the ScaleIO Storage Pool associated with the protection domain.",
        "type": "string"
      },
      "system": {
        "default": "",
        "description": "system is the name of the storage system as configured in ScaleIO.",
        "type": "string"
      },
      "volumeName": {
        "description": "volumeName is the name of a volume already created in the ScaleIO system that is associated with this volume source.",
        "type": "string"
      }
    },
    "required": [
      "gateway",
      "system",
      "secretRef"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.SeccompProfile": {
    "description": "SeccompProfile defines a pod/container's seccomp profile settings. Only one profile source may be set.",
    "properties": {
      "localhostProfile": {
        "description": "localhostProfile indicates a profile defined in a file on the node should be used. The profile must be preconfigured on the node to work. Must be a descending path, relative to the kubelet's configured seccomp profile location. Must be set if type is \"Localhost\". Must NOT be set for any other type.",
        "type": "string"
      },
      "type": {
        "default": "",
        "description": "type indicates which kind of seccomp profile will be applied. Valid options are:\n\nLocalhost - a profile defined in a file on the node should be used. RuntimeDefault - the container runtime default profile should be used. Unconfined - no profile should be applied.",
        "type": "string"
      }
    },
    "required": [
      "type"
    ],
    "type": "object",
    "x-kubernetes-unions": [
      {
        "discriminator": "type",
        "fields-to-discriminateBy": {
          "localhostProfile": "LocalhostProfile"
        }
      }
    ]
  },
  "io.k8s.api.core.v1.Secret": {
    "description": "Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "data": {
        "additionalProperties": {
          "format": "byte",
          "type": "string"
        },
        "description": "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
        "type": "object"
      },
      "immutable": {
        "description": "Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.",
        "type": "boolean"
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
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "stringData": {
        "additionalProperties": {
          "default": "",
          "type": "string"
        },
        "description": "stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.",
        "type": "object"
      },
      "type": {
        "description": "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
        "type": "string"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "Secret",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.SecretEnvSource": {
    "description": "SecretEnvSource selects a Secret to populate the environment variables with.\n\nThe contents of the target Secret's Data field will represent the key-value pairs as environment variables.",
    "properties": {
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "optional": {
        "description": "Specify whether the Secret must be defined",
        "type": "boolean"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.SecretKeySelector": {
    "description": "SecretKeySelector selects a key of a Secret.",
    "properties": {
      "key": {
        "default": "",
        "description": "The key of the secret to select from.  Must be a valid secret key.",
        "type": "string"
      },
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "optional": {
        "description": "Specify whether the Secret or its key must be defined",
        "type": "boolean"
      }
    },
    "required": [
      "key"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.SecretList": {
    "description": "SecretList is a list of Secret.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "Items is a list of secret objects. More info: https://kubernetes.io/docs/concepts/configuration/secret",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Secret"
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "SecretList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.SecretProjection": {
    "description": "Adapts a secret into a projected volume.\n\nThe contents of the target Secret's Data field will be presented in a projected volume as files using the keys in the Data field as the file names. Note that this is identical to a secret volume source without the default mode.",
    "properties": {
      "items": {
        "description": "items if unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present. If a key is specified which is not present in the Secret, the volume setup will error unless it is marked optional. Paths must be relative and may not contain the '..' path or start with '..'.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.KeyToPath"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "name": {
        "default": "",
        "description": "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "optional": {
        "description": "optional field specify whether the Secret or its key must be defined",
        "type": "boolean"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.SecretVolumeSource": {
    "description": "Adapts a Secret into a volume.\n\nThe contents of the target Secret's Data field will be presented in a volume as files using the keys in the Data field as the file names. Secret volumes support ownership management and SELinux relabeling.",
    "properties": {
      "defaultMode": {
        "description": "defaultMode is Optional: mode bits used to set permissions on created files by default. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. YAML accepts both octal and decimal values, JSON requires decimal values for mode bits. Defaults to 0644. Directories within the path are not affected by this setting. This might be in conflict with other options that affect the file mode, like fsGroup, and the result can be other mode bits set.",
        "format": "int32",
        "type": "integer"
      },
      "items": {
        "description": "items If unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present. If a key is specified which is not present in the Secret, the volume setup will error unless it is marked optional. Paths must be relative and may not contain the '..' path or start with '..'.",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.KeyToPath"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "optional": {
        "description": "optional field specify whether the Secret or its keys must be defined",
        "type": "boolean"
      },
      "secretName": {
        "description": "secretName is the name of the secret in the pod's namespace to use. More info: https://kubernetes.io/docs/concepts/storage/volumes#secret",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.SecurityContext": {
    "description": "SecurityContext holds security configuration that will be applied to a container. Some fields are present in both SecurityContext and PodSecurityContext.  When both are set, the values in SecurityContext take precedence.",
    "properties": {
      "allowPrivilegeEscalation": {
        "description": "AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process. This bool directly controls if the no_new_privs flag will be set on the container process. AllowPrivilegeEscalation is true always when the container is: 1) run as Privileged 2) has CAP_SYS_ADMIN Note that this field cannot be set when spec.os.name is windows.",
        "type": "boolean"
      },
      "appArmorProfile": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.AppArmorProfile"
          }
        ],
        "description": "appArmorProfile is the AppArmor options to use by this container. If set, this profile overrides the pod's appArmorProfile. Note that this field cannot be set when spec.os.name is windows."
      },
      "capabilities": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.Capabilities"
          }
        ],
        "description": "The capabilities to add/drop when running containers. Defaults to the default set of capabilities granted by the container runtime. Note that this field cannot be set when spec.os.name is windows."
      },
      "privileged": {
        "description": "Run container in privileged mode. Processes in privileged containers are essentially equivalent to root on the host. Defaults to false. Note that this field cannot be set when spec.os.name is windows.",
        "type": "boolean"
      },
      "procMount": {
        "description": "procMount denotes the type of proc mount to use for the containers. The default value is Default which uses the container runtime defaults for readonly paths and masked paths. This requires the ProcMountType feature flag to be enabled. Note that this field cannot be set when spec.os.name is windows.",
        "type": "string"
      },
      "readOnlyRootFilesystem": {
        "description": "Whether this container has a read-only root filesystem. Default is false. Note that this field cannot be set when spec.os.name is windows.",
        "type": "boolean"
      },
      "runAsGroup": {
        "description": "The GID to run the entrypoint of the container process. Uses runtime default if unset. May also be set in PodSecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence. Note that this field cannot be set when spec.os.name is windows.",
        "format": "int64",
        "type": "integer"
      },
      "runAsNonRoot": {
        "description": "Indicates that the container must run as a non-root user. If true, the Kubelet will validate the image at runtime to ensure that it does not run as UID 0 (root) and fail to start the container if it does. If unset or false, no such validation will be performed. May also be set in PodSecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.",
        "type": "boolean"
      },
      "runAsUser": {
        "description": "The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified. May also be set in PodSecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence. Note that this field cannot be set when spec.os.name is windows.",
        "format": "int64",
        "type": "integer"
      },
      "seLinuxOptions": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SELinuxOptions"
          }
        ],
        "description": "The SELinux context to be applied to the container. If unspecified, the container runtime will allocate a random SELinux context for each container.  May also be set in PodSecurityContext.  If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence. Note that this field cannot be set when spec.os.name is windows."
      },
      "seccompProfile": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SeccompProfile"
          }
        ],
        "description": "The seccomp options to use by this container. If seccomp options are provided at both the pod & container level, the container options override the pod options. Note that this field cannot be set when spec.os.name is windows."
      },
      "windowsOptions": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.WindowsSecurityContextOptions"
          }
        ],
        "description": "The Windows specific settings applied to all containers. If unspecified, the options from the PodSecurityContext will be used. If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence. Note that this field cannot be set when spec.os.name is linux."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.Service": {
    "description": "Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.",
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
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "spec": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ServiceSpec"
          }
        ],
        "default": {},
        "description": "Spec defines the behavior of a service. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"
      },
      "status": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ServiceStatus"
          }
        ],
        "default": {},
        "description": "Most recently observed status of the service. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "Service",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.ServiceAccount": {
    "description": "ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "automountServiceAccountToken": {
        "description": "AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted. Can be overridden at the pod level.",
        "type": "boolean"
      },
      "imagePullSecrets": {
        "description": "ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount. ImagePullSecrets are distinct from Secrets because Secrets can be mounted in the pod, but ImagePullSecrets are only accessed by the kubelet. More info: https://kubernetes.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
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
        "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
      },
      "secrets": {
        "description": "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a \"kubernetes.io/enforce-mountable-secrets\" annotation set to \"true\". The \"kubernetes.io/enforce-mountable-secrets\" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ObjectReference"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "name"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "name",
        "x-kubernetes-patch-strategy": "merge"
      }
    },
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "ServiceAccount",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.ServiceAccountList": {
    "description": "ServiceAccountList is a list of ServiceAccount objects",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "List of ServiceAccounts. More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ServiceAccount"
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "ServiceAccountList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.ServiceAccountTokenProjection": {
    "description": "ServiceAccountTokenProjection represents a projected service account token volume. This projection can be used to insert a service account token into the pods runtime filesystem for use against APIs (Kubernetes API Server or otherwise).",
    "properties": {
      "audience": {
        "description": "audience is the intended audience of the token. A recipient of a token must identify itself with an identifier specified in the audience of the token, and otherwise should reject the token. The audience defaults to the identifier of the apiserver.",
        "type": "string"
      },
      "expirationSeconds": {
        "description": "expirationSeconds is the requested duration of validity of the service account token. As the token approaches expiration, the kubelet volume plugin will proactively rotate the service account token. The kubelet will start trying to rotate the token if the token is older than 80 percent of its time to live or if the token is older than 24 hours.Defaults to 1 hour and must be at least 10 minutes.",
        "format": "int64",
        "type": "integer"
      },
      "path": {
        "default": "",
        "description": "path is the path relative to the mount point of the file to project the token into.",
        "type": "string"
      }
    },
    "required": [
      "path"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ServiceList": {
    "description": "ServiceList holds a list of services.",
    "properties": {
      "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string"
      },
      "items": {
        "description": "List of services",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.Service"
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
        "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
      }
    },
    "required": [
      "items"
    ],
    "type": "object",
    "x-kubernetes-group-version-kind": [
      {
        "group": "",
        "kind": "ServiceList",
        "version": "v1"
      }
    ]
  },
  "io.k8s.api.core.v1.ServicePort": {
    "description": "ServicePort contains information on service's port.",
    "properties": {
      "appProtocol": {
        "description": "The application protocol for this port. This is used as a hint for implementations to offer richer behavior for protocols that they understand. This field follows standard Kubernetes label syntax. Valid values are either:\n\n* Un-prefixed protocol names - reserved for IANA standard service names (as per RFC-6335 and https://www.iana.org/assignments/service-names).\n\n* Kubernetes-defined prefixed names:\n  * 'kubernetes.io/h2c' - HTTP/2 prior knowledge over cleartext as described in https://www.rfc-editor.org/rfc/rfc9113.html#name-starting-http-2-with-prior-\n  * 'kubernetes.io/ws'  - WebSocket over cleartext as described in https://www.rfc-editor.org/rfc/rfc6455\n  * 'kubernetes.io/wss' - WebSocket over TLS as described in https://www.rfc-editor.org/rfc/rfc6455\n\n* Other protocols should use implementation-defined prefixed names such as mycompany.com/my-custom-protocol.",
        "type": "string"
      },
      "name": {
        "description": "The name of this port within the service. This must be a DNS_LABEL. All ports within a ServiceSpec must have unique names. When considering the endpoints for a Service, this must match the 'name' field in the EndpointPort. Optional if only one ServicePort is defined on this service.",
        "type": "string"
      },
      "nodePort": {
        "description": "The port on each node on which this service is exposed when type is NodePort or LoadBalancer.  Usually assigned by the system. If a value is specified, in-range, and not in use it will be used, otherwise the operation will fail.  If not specified, a port will be allocated if this Service requires one.  If this field is specified when creating a Service which does not need it, creation will fail. This field will be wiped when updating a Service to no longer need it (e.g. changing type from NodePort to ClusterIP). More info: https://kubernetes.io/docs/concepts/services-networking/service/#type-nodeport",
        "format": "int32",
        "type": "integer"
      },
      "port": {
        "default": 0,
        "description": "The port that will be exposed by this service.",
        "format": "int32",
        "type": "integer"
      },
      "protocol": {
        "default": "TCP",
        "description": "The IP protocol for this port. Supports \"TCP\", \"UDP\", and \"SCTP\". Default is TCP.",
        "type": "string"
      },
      "targetPort": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"
          }
        ],
        "description": "Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports. If this is not specified, the value of the 'port' field is used (an identity map). This field is ignored for services with clusterIP=None, and should be omitted or set equal to the 'port' field. More info: https://kubernetes.io/docs/concepts/services-networking/service/#defining-a-service"
      }
    },
    "required": [
      "port"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.ServiceSpec": {
    "description": "ServiceSpec describes the attributes that a user creates on a service.",
    "properties": {
      "allocateLoadBalancerNodePorts": {
        "description": "allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer.  Default is \"true\". It may be set to \"false\" if the cluster load-balancer does not rely on NodePorts.  If the caller requests specific NodePorts (by specifying a value), those requests will be respected, regardless of this field. This field may only be set for services with type LoadBalancer and will be cleared if the type is changed to any other type.",
        "type": "boolean"
      },
      "clusterIP": {
        "description": "clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a valid IP address. Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
        "type": "string"
      },
      "clusterIPs": {
        "description": "ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly.  If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be empty) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a valid IP address.  Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName.  If this field is not specified, it will be initialized from the clusterIP field.  If this field is specified, clients must ensure that clusterIPs[0] and clusterIP have the same value.\n\nThis field may hold a maximum of two entries (dual-stack IPs, in either order). These IPs must correspond to the values of the ipFamilies field. Both clusterIPs and ipFamilies are governed by the ipFamilyPolicy field. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "externalIPs": {
        "description": "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "externalName": {
        "description": "externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record). No proxying will be involved.  Must be a lowercase RFC-1123 hostname (https://tools.ietf.org/html/rfc1123) and requires `type` to be \"ExternalName\".",
        "type": "string"
      },
      "externalTrafficPolicy": {
        "description": "externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service's \"externally-facing\" addresses (NodePorts, ExternalIPs, and LoadBalancer IPs). If set to \"Local\", the proxy will configure the service in a way that assumes that external load balancers will take care of balancing the service traffic between nodes, and so each node will deliver traffic only to the node-local endpoints of the service, without masquerading the client source IP. (Traffic mistakenly sent to a node with no endpoints will be dropped.) The default value, \"Cluster\", uses the standard behavior of routing to all endpoints evenly (possibly modified by topology and other features). Note that traffic sent to an External IP or LoadBalancer IP from within the cluster will always get \"Cluster\" semantics, but clients sending to a NodePort from within the cluster may need to take traffic policy into account when picking a node.",
        "type": "string"
      },
      "healthCheckNodePort": {
        "description": "healthCheckNodePort specifies the healthcheck nodePort for the service. This only applies when type is set to LoadBalancer and externalTrafficPolicy is set to Local. If a value is specified, is in-range, and is not in use, it will be used.  If not specified, a value will be automatically allocated.  External systems (e.g. load-balancers) can use this port to determine if a given node holds endpoints for this service or not.  If this field is specified when creating a Service which does not need it, creation will fail. This field will be wiped when updating a Service to no longer need it (e.g. changing type). This field cannot be updated once set.",
        "format": "int32",
        "type": "integer"
      },
      "internalTrafficPolicy": {
        "description": "InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP. If set to \"Local\", the proxy will assume that pods only want to talk to endpoints of the service on the same node as the pod, dropping the traffic if there are no local endpoints. The default value, \"Cluster\", uses the standard behavior of routing to all endpoints evenly (possibly modified by topology and other features).",
        "type": "string"
      },
      "ipFamilies": {
        "description": "IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service. This field is usually assigned automatically based on cluster configuration and the ipFamilyPolicy field. If this field is specified manually, the requested family is available in the cluster, and ipFamilyPolicy allows it, it will be used; otherwise creation of the service will fail. This field is conditionally mutable: it allows for adding or removing a secondary IP family, but it does not allow changing the primary IP family of the Service. Valid values are \"IPv4\" and \"IPv6\".  This field only applies to Services of types ClusterIP, NodePort, and LoadBalancer, and does apply to \"headless\" services. This field will be wiped when updating a Service to type ExternalName.\n\nThis field may hold a maximum of two entries (dual-stack families, in either order).  These families must correspond to the values of the clusterIPs field, if specified. Both clusterIPs and ipFamilies are governed by the ipFamilyPolicy field.",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "ipFamilyPolicy": {
        "description": "IPFamilyPolicy represents the dual-stack-ness requested or required by this Service. If there is no value provided, then this field will be set to SingleStack. Services can be \"SingleStack\" (a single IP family), \"PreferDualStack\" (two IP families on dual-stack configured clusters or a single IP family on single-stack clusters), or \"RequireDualStack\" (two IP families on dual-stack configured clusters, otherwise fail). The ipFamilies and clusterIPs fields depend on the value of this field. This field will be wiped when updating a service to type ExternalName.",
        "type": "string"
      },
      "loadBalancerClass": {
        "description": "loadBalancerClass is the class of the load balancer implementation this Service belongs to. If specified, the value of this field must be a label-style identifier, with an optional prefix, e.g. \"internal-vip\" or \"example.com/internal-vip\". Unprefixed names are reserved for end-users. This field can only be set when the Service type is 'LoadBalancer'. If not set, the default load balancer implementation is used, today this is typically done through the cloud provider integration, but should apply for any default implementation. If set, it is assumed that a load balancer implementation is watching for Services with a matching class. Any default load balancer implementation (e.g. cloud providers) should ignore Services that set this field. This field can only be set when creating or updating a Service to type 'LoadBalancer'. Once set, it can not be changed. This field will be wiped when a service is updated to a non 'LoadBalancer' type.",
        "type": "string"
      },
      "loadBalancerIP": {
        "description": "Only applies to Service Type: LoadBalancer. This feature depends on whether the underlying cloud-provider supports specifying the loadBalancerIP when a load balancer is created. This field will be ignored if the cloud-provider does not support the feature. Deprecated: This field was under-specified and its meaning varies across implementations. Using it is non-portable and it may not support dual-stack. Users are encouraged to use implementation-specific annotations when available.",
        "type": "string"
      },
      "loadBalancerSourceRanges": {
        "description": "If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs. This field will be ignored if the cloud-provider does not support the feature.\" More info: https://kubernetes.io/docs/tasks/access-application-cluster/create-external-load-balancer/",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "ports": {
        "description": "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.api.core.v1.ServicePort"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "port",
          "protocol"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "port",
        "x-kubernetes-patch-strategy": "merge"
      },
      "publishNotReadyAddresses": {
        "description": "publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready. The primary use case for setting this field is for a StatefulSet's Headless Service to propagate SRV DNS records for its Pods for the purpose of peer discovery. The Kubernetes controllers that generate Endpoints and EndpointSlice resources for Services interpret this to mean that all endpoints are considered \"ready\" even if the Pods themselves are not. Agents which consume only Kubernetes generated endpoints through the Endpoints or EndpointSlice resources can safely assume this behavior.",
        "type": "boolean"
      },
      "selector": {
        "additionalProperties": {
          "default": "",
          "type": "string"
        },
        "description": "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
        "type": "object",
        "x-kubernetes-map-type": "atomic"
      },
      "sessionAffinity": {
        "description": "Supports \"ClientIP\" and \"None\". Used to maintain session affinity. Enable client IP based session affinity. Must be ClientIP or None. Defaults to None. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
        "type": "string"
      },
      "sessionAffinityConfig": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SessionAffinityConfig"
          }
        ],
        "description": "sessionAffinityConfig contains the configurations of session affinity."
      },
      "trafficDistribution": {
        "description": "TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints. Implementations can use this field as a hint, but are not required to guarantee strict adherence. If the field is not set, the implementation will apply its default routing strategy. If set to \"PreferClose\", implementations should prioritize endpoints that are in the same zone.",
        "type": "string"
      },
      "type": {
        "description": "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.ServiceStatus": {
    "description": "ServiceStatus represents the current status of a service.",
    "properties": {
      "conditions": {
        "description": "Current service state",
        "items": {
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Condition"
            }
          ],
          "default": {}
        },
        "type": "array",
        "x-kubernetes-list-map-keys": [
          "type"
        ],
        "x-kubernetes-list-type": "map",
        "x-kubernetes-patch-merge-key": "type",
        "x-kubernetes-patch-strategy": "merge"
      },
      "loadBalancer": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LoadBalancerStatus"
          }
        ],
        "default": {},
        "description": "LoadBalancer contains the current status of the load-balancer, if one is present."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.SessionAffinityConfig": {
    "description": "SessionAffinityConfig represents the configurations of session affinity.",
    "properties": {
      "clientIP": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ClientIPConfig"
          }
        ],
        "description": "clientIP contains the configurations of Client IP based session affinity."
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.SleepAction": {
    "description": "SleepAction describes a \"sleep\" action.",
    "properties": {
      "seconds": {
        "default": 0,
        "description": "Seconds is the number of seconds to sleep.",
        "format": "int64",
        "type": "integer"
      }
    },
    "required": [
      "seconds"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.StorageOSVolumeSource": {
    "description": "Represents a StorageOS persistent volume resource.",
    "properties": {
      "fsType": {
        "description": "fsType is the filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified.",
        "type": "string"
      },
      "readOnly": {
        "description": "readOnly defaults to false (read/write). ReadOnly here will force the ReadOnly setting in VolumeMounts.",
        "type": "boolean"
      },
      "secretRef": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.LocalObjectReference"
          }
        ],
        "description": "secretRef specifies the secret to use for obtaining the StorageOS API credentials.  If not specified, default values will be attempted."
      },
      "volumeName": {
        "description": "volumeName is the human-readable name of the StorageOS volume.  Volume names are only unique within a namespace.",
        "type": "string"
      },
      "volumeNamespace": {
        "description": "volumeNamespace specifies the scope of the volume within StorageOS.  If no namespace is specified then the Pod's namespace will be used.  This allows the Kubernetes name scoping to be mirrored within StorageOS for tighter integration. Set VolumeName to any name to override the default behaviour. Set to \"default\" if you are not using namespaces within StorageOS. Namespaces that do not pre-exist within StorageOS will be created.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.Sysctl": {
    "description": "Sysctl defines a kernel parameter to be set",
    "properties": {
      "name": {
        "default": "",
        "description": "Name of a property to set",
        "type": "string"
      },
      "value": {
        "default": "",
        "description": "Value of a property to set",
        "type": "string"
      }
    },
    "required": [
      "name",
      "value"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.TCPSocketAction": {
    "description": "TCPSocketAction describes an action based on opening a socket",
    "properties": {
      "host": {
        "description": "Optional: Host name to connect to, defaults to the pod IP.",
        "type": "string"
      },
      "port": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"
          }
        ],
        "description": "Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME."
      }
    },
    "required": [
      "port"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Toleration": {
    "description": "The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.",
    "properties": {
      "effect": {
        "description": "Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.",
        "type": "string"
      },
      "key": {
        "description": "Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.",
        "type": "string"
      },
      "operator": {
        "description": "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal. Exists is equivalent to wildcard for value, so that a pod can tolerate all taints of a particular category.",
        "type": "string"
      },
      "tolerationSeconds": {
        "description": "TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict). Zero and negative values will be treated as 0 (evict immediately) by the system.",
        "format": "int64",
        "type": "integer"
      },
      "value": {
        "description": "Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.TopologySpreadConstraint": {
    "description": "TopologySpreadConstraint specifies how to spread matching pods among the given topology.",
    "properties": {
      "labelSelector": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"
          }
        ],
        "description": "LabelSelector is used to find matching pods. Pods that match this label selector are counted to determine the number of pods in their corresponding topology domain."
      },
      "matchLabelKeys": {
        "description": "MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn't set. Keys that don't exist in the incoming pod labels will be ignored. A null or empty list means only match against labelSelector.\n\nThis is a beta field and requires the MatchLabelKeysInPodTopologySpread feature gate to be enabled (enabled by default).",
        "items": {
          "default": "",
          "type": "string"
        },
        "type": "array",
        "x-kubernetes-list-type": "atomic"
      },
      "maxSkew": {
        "default": 0,
        "description": "MaxSkew describes the degree to which pods may be unevenly distributed. When `whenUnsatisfiable=DoNotSchedule`, it is the maximum permitted difference between the number of matching pods in the target topology and the global minimum. The global minimum is the minimum number of matching pods in an eligible domain or zero if the number of eligible domains is less than MinDomains. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 2/2/1: In this case, the global minimum is 1. | zone1 | zone2 | zone3 | |  P P  |  P P  |   P   | - if MaxSkew is 1, incoming pod can only be scheduled to zone3 to become 2/2/2; scheduling it onto zone1(zone2) would make the ActualSkew(3-1) on zone1(zone2) violate MaxSkew(1). - if MaxSkew is 2, incoming pod can be scheduled onto any zone. When `whenUnsatisfiable=ScheduleAnyway`, it is used to give higher precedence to topologies that satisfy it. It's a required field. Default value is 1 and 0 is not allowed.",
        "format": "int32",
        "type": "integer"
      },
      "minDomains": {
        "description": "MinDomains indicates a minimum number of eligible domains. When the number of eligible domains with matching topology keys is less than minDomains, Pod Topology Spread treats \"global minimum\" as 0, and then the calculation of Skew is performed. And when the number of eligible domains with matching topology keys equals or greater than minDomains, this value has no effect on scheduling. As a result, when the number of eligible domains is less than minDomains, scheduler won't schedule more than maxSkew Pods to those domains. If value is nil, the constraint behaves as if MinDomains is equal to 1. Valid values are integers greater than 0. When value is not nil, WhenUnsatisfiable must be DoNotSchedule.\n\nFor example, in a 3-zone cluster, MaxSkew is set to 2, MinDomains is set to 5 and pods with the same labelSelector spread as 2/2/2: | zone1 | zone2 | zone3 | |  P P  |  P P  |  P P  | The number of domains is less than 5(MinDomains), so \"global minimum\" is treated as 0. In this situation, new pod with the same labelSelector cannot be scheduled, because computed skew will be 3(3 - 0) if new Pod is scheduled to any of the three zones, it will violate MaxSkew.",
        "format": "int32",
        "type": "integer"
      },
      "nodeAffinityPolicy": {
        "description": "NodeAffinityPolicy indicates how we will treat Pod's nodeAffinity/nodeSelector when calculating pod topology spread skew. Options are: - Honor: only nodes matching nodeAffinity/nodeSelector are included in the calculations. - Ignore: nodeAffinity/nodeSelector are ignored. All nodes are included in the calculations.\n\nIf this value is nil, the behavior is equivalent to the Honor policy.",
        "type": "string"
      },
      "nodeTaintsPolicy": {
        "description": "NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew. Options are: - Honor: nodes without taints, along with tainted nodes for which the incoming pod has a toleration, are included. - Ignore: node taints are ignored. All nodes are included.\n\nIf this value is nil, the behavior is equivalent to the Ignore policy.",
        "type": "string"
      },
      "topologyKey": {
        "default": "",
        "description": "TopologyKey is the key of node labels. Nodes that have a label with this key and identical values are considered to be in the same topology. We consider each <key, value> as a \"bucket\", and try to put balanced number of pods into each bucket. We define a domain as a particular instance of a topology. Also, we define an eligible domain as a domain whose nodes meet the requirements of nodeAffinityPolicy and nodeTaintsPolicy. e.g. If TopologyKey is \"kubernetes.io/hostname\", each Node is a domain of that topology. And, if TopologyKey is \"topology.kubernetes.io/zone\", each zone is a domain of that topology. It's a required field.",
        "type": "string"
      },
      "whenUnsatisfiable": {
        "default": "",
        "description": "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint. - DoNotSchedule (default) tells the scheduler not to schedule it. - ScheduleAnyway tells the scheduler to schedule the pod in any location,\n  but giving higher precedence to topologies that would help reduce the\n  skew.\nA constraint is considered \"Unsatisfiable\" for an incoming pod if and only if every possible node assignment for that pod would violate \"MaxSkew\" on some topology. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 3/1/1: | zone1 | zone2 | zone3 | | P P P |   P   |   P   | If WhenUnsatisfiable is set to DoNotSchedule, incoming pod can only be scheduled to zone2(zone3) to become 3/2/1(3/1/2) as ActualSkew(2-1) on zone2(zone3) satisfies MaxSkew(1). In other words, the cluster can still be imbalanced, but scheduler won't make it *more* imbalanced. It's a required field.",
        "type": "string"
      }
    },
    "required": [
      "maxSkew",
      "topologyKey",
      "whenUnsatisfiable"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.TypedLocalObjectReference": {
    "description": "TypedLocalObjectReference contains enough information to let you locate the typed referenced object inside the same namespace.",
    "properties": {
      "apiGroup": {
        "description": "APIGroup is the group for the resource being referenced. If APIGroup is not specified, the specified Kind must be in the core API group. For any other third-party types, APIGroup is required.",
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
      "kind",
      "name"
    ],
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.api.core.v1.TypedObjectReference": {
    "description": "TypedObjectReference contains enough information to let you locate the typed referenced object",
    "properties": {
      "apiGroup": {
        "description": "APIGroup is the group for the resource being referenced. If APIGroup is not specified, the specified Kind must be in the core API group. For any other third-party types, APIGroup is required.",
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
      },
      "namespace": {
        "description": "Namespace is the namespace of resource being referenced Note that when a namespace is specified, a gateway.networking.k8s.io/ReferenceGrant object is required in the referent namespace to allow that namespace's owner to accept the reference. See the ReferenceGrant documentation for details. (Alpha) This field requires the CrossNamespaceVolumeDataSource feature gate to be enabled.",
        "type": "string"
      }
    },
    "required": [
      "kind",
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.Volume": {
    "description": "Volume represents a named volume in a pod that may be accessed by any container in the pod.",
    "properties": {
      "awsElasticBlockStore": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource"
          }
        ],
        "description": "awsElasticBlockStore represents an AWS Disk resource that is attached to a kubelet's host machine and then exposed to the pod. Deprecated: AWSElasticBlockStore is deprecated. All operations for the in-tree awsElasticBlockStore type are redirected to the ebs.csi.aws.com CSI driver. More info: https://kubernetes.io/docs/concepts/storage/volumes#awselasticblockstore"
      },
      "azureDisk": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.AzureDiskVolumeSource"
          }
        ],
        "description": "azureDisk represents an Azure Data Disk mount on the host and bind mount to the pod. Deprecated: AzureDisk is deprecated. All operations for the in-tree azureDisk type are redirected to the disk.csi.azure.com CSI driver."
      },
      "azureFile": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.AzureFileVolumeSource"
          }
        ],
        "description": "azureFile represents an Azure File Service mount on the host and bind mount to the pod. Deprecated: AzureFile is deprecated. All operations for the in-tree azureFile type are redirected to the file.csi.azure.com CSI driver."
      },
      "cephfs": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.CephFSVolumeSource"
          }
        ],
        "description": "cephFS represents a Ceph FS mount on the host that shares a pod's lifetime. Deprecated: CephFS is deprecated and the in-tree cephfs type is no longer supported."
      },
      "cinder": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.CinderVolumeSource"
          }
        ],
        "description": "cinder represents a cinder volume attached and mounted on kubelets host machine. Deprecated: Cinder is deprecated. All operations for the in-tree cinder type are redirected to the cinder.csi.openstack.org CSI driver. More info: https://examples.k8s.io/mysql-cinder-pd/README.md"
      },
      "configMap": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ConfigMapVolumeSource"
          }
        ],
        "description": "configMap represents a configMap that should populate this volume"
      },
      "csi": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.CSIVolumeSource"
          }
        ],
        "description": "csi (Container Storage Interface) represents ephemeral storage that is handled by certain external CSI drivers."
      },
      "downwardAPI": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.DownwardAPIVolumeSource"
          }
        ],
        "description": "downwardAPI represents downward API about the pod that should populate this volume"
      },
      "emptyDir": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.EmptyDirVolumeSource"
          }
        ],
        "description": "emptyDir represents a temporary directory that shares a pod's lifetime. More info: https://kubernetes.io/docs/concepts/storage/volumes#emptydir"
      },
      "ephemeral": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.EphemeralVolumeSource"
          }
        ],
        "description": "ephemeral represents a volume that is handled by a cluster storage driver. The volume's lifecycle is tied to the pod that defines it - it will be created before the pod starts, and deleted when the pod is removed.\n\nUse this if: a) the volume is only needed while the pod runs, b) features of normal volumes like restoring from snapshot or capacity\n   tracking are needed,\nc) the storage driver is specified through a storage class, and d) the storage driver supports dynamic volume provisioning through\n   a PersistentVolumeClaim (see EphemeralVolumeSource for more\n   information on the connection between this volume type\n   and PersistentVolumeClaim).\n\nUse PersistentVolumeClaim or one of the vendor-specific APIs for volumes that persist for longer than the lifecycle of an individual pod.\n\nUse CSI for light-weight local ephemeral volumes if the CSI driver is meant to be used that way - see the documentation of the driver for more information.\n\nA pod can use both types of ephemeral volumes and persistent volumes at the same time."
      },
      "fc": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.FCVolumeSource"
          }
        ],
        "description": "fc represents a Fibre Channel resource that is attached to a kubelet's host machine and then exposed to the pod."
      },
      "flexVolume": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.FlexVolumeSource"
          }
        ],
        "description": "flexVolume represents a generic volume resource that is provisioned/attached using an exec based plugin. Deprecated: FlexVolume is deprecated. Consider using a CSIDriver instead."
      },
      "flocker": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.FlockerVolumeSource"
          }
        ],
        "description": "flocker represents a Flocker volume attached to a kubelet's host machine. This depends on the Flocker control service being running. Deprecated: Flocker is deprecated and the in-tree flocker type is no longer supported."
      },
      "gcePersistentDisk": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.GCEPersistentDiskVolumeSource"
          }
        ],
        "description": "gcePersistentDisk represents a GCE Disk resource that is attached to a kubelet's host machine and then exposed to the pod. Deprecated: GCEPersistentDisk is deprecated. All operations for the in-tree gcePersistentDisk type are redirected to the pd.csi.storage.gke.io CSI driver. More info: https://kubernetes.io/docs/concepts/storage/volumes#gcepersistentdisk"
      },
      "gitRepo": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.GitRepoVolumeSource"
          }
        ],
        "description": "gitRepo represents a git repository at a particular revision. Deprecated: GitRepo is deprecated. To provision a container with a git repo, mount an EmptyDir into an InitContainer that clones the repo using git, then mount the EmptyDir into the Pod's container."
      },
      "glusterfs": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.GlusterfsVolumeSource"
          }
        ],
        "description": "glusterfs represents a Glusterfs mount on the host that shares a pod's lifetime. Deprecated: Glusterfs is deprecated and the in-tree glusterfs type is no longer supported. More info: https://examples.k8s.io/volumes/glusterfs/README.md"
      },
      "hostPath": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.HostPathVolumeSource"
          }
        ],
        "description": "hostPath represents a pre-existing file or directory on the host machine that is directly exposed to the container. This is generally used for system agents or other privileged things that are allowed to see the host machine. Most containers will NOT need this. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath"
      },
      "image": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ImageVolumeSource"
          }
        ],
        "description": "image represents an OCI object (a container image or artifact) pulled and mounted on the kubelet's host machine. The volume is resolved at pod startup depending on which PullPolicy value is provided:\n\n- Always: the kubelet always attempts to pull the reference. Container creation will fail If the pull fails. - Never: the kubelet never pulls the reference and only uses a local image or artifact. Container creation will fail if the reference isn't present. - IfNotPresent: the kubelet pulls if the reference isn't already present on disk. Container creation will fail if the reference isn't present and the pull fails.\n\nThe volume gets re-resolved if the pod gets deleted and recreated, which means that new remote content will become available on pod recreation. A failure to resolve or pull the image during pod startup will block containers from starting and may add significant latency. Failures will be retried using normal volume backoff and will be reported on the pod reason and message. The types of objects that may be mounted by this volume are defined by the container runtime implementation on a host machine and at minimum must include all valid types supported by the container image field. The OCI object gets mounted in a single directory (spec.containers[*].volumeMounts.mountPath) by merging the manifest layers in the same way as for container images. The volume will be mounted read-only (ro) and non-executable files (noexec). Sub path mounts for containers are not supported (spec.containers[*].volumeMounts.subpath) before 1.33. The field spec.securityContext.fsGroupChangePolicy has no effect on this volume type."
      },
      "iscsi": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ISCSIVolumeSource"
          }
        ],
        "description": "iscsi represents an ISCSI Disk resource that is attached to a kubelet's host machine and then exposed to the pod. More info: https://examples.k8s.io/volumes/iscsi/README.md"
      },
      "name": {
        "default": "",
        "description": "name of the volume. Must be a DNS_LABEL and unique within the pod. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
        "type": "string"
      },
      "nfs": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.NFSVolumeSource"
          }
        ],
        "description": "nfs represents an NFS mount on the host that shares a pod's lifetime More info: https://kubernetes.io/docs/concepts/storage/volumes#nfs"
      },
      "persistentVolumeClaim": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource"
          }
        ],
        "description": "persistentVolumeClaimVolumeSource represents a reference to a PersistentVolumeClaim in the same namespace. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims"
      },
      "photonPersistentDisk": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource"
          }
        ],
        "description": "photonPersistentDisk represents a PhotonController persistent disk attached and mounted on kubelets host machine. Deprecated: PhotonPersistentDisk is deprecated and the in-tree photonPersistentDisk type is no longer supported."
      },
      "portworxVolume": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PortworxVolumeSource"
          }
        ],
        "description": "portworxVolume represents a portworx volume attached and mounted on kubelets host machine. Deprecated: PortworxVolume is deprecated. All operations for the in-tree portworxVolume type are redirected to the pxd.portworx.com CSI driver when the CSIMigrationPortworx feature-gate is on."
      },
      "projected": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ProjectedVolumeSource"
          }
        ],
        "description": "projected items for all in one resources secrets, configmaps, and downward API"
      },
      "quobyte": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.QuobyteVolumeSource"
          }
        ],
        "description": "quobyte represents a Quobyte mount on the host that shares a pod's lifetime. Deprecated: Quobyte is deprecated and the in-tree quobyte type is no longer supported."
      },
      "rbd": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.RBDVolumeSource"
          }
        ],
        "description": "rbd represents a Rados Block Device mount on the host that shares a pod's lifetime. Deprecated: RBD is deprecated and the in-tree rbd type is no longer supported. More info: https://examples.k8s.io/volumes/rbd/README.md"
      },
      "scaleIO": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ScaleIOVolumeSource"
          }
        ],
        "description": "scaleIO represents a ScaleIO persistent volume attached and mounted on Kubernetes nodes. Deprecated: ScaleIO is deprecated and the in-tree scaleIO type is no longer supported."
      },
      "secret": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SecretVolumeSource"
          }
        ],
        "description": "secret represents a secret that should populate this volume. More info: https://kubernetes.io/docs/concepts/storage/volumes#secret"
      },
      "storageos": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.StorageOSVolumeSource"
          }
        ],
        "description": "storageOS represents a StorageOS volume attached and mounted on Kubernetes nodes. Deprecated: StorageOS is deprecated and the in-tree storageos type is no longer supported."
      },
      "vsphereVolume": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource"
          }
        ],
        "description": "vsphereVolume represents a vSphere volume attached and mounted on kubelets host machine. Deprecated: VsphereVolume is deprecated. All operations for the in-tree vsphereVolume type are redirected to the csi.vsphere.vmware.com CSI driver."
      }
    },
    "required": [
      "name"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.VolumeDevice": {
    "description": "volumeDevice describes a mapping of a raw block device within a container.",
    "properties": {
      "devicePath": {
        "default": "",
        "description": "devicePath is the path inside of the container that the device will be mapped to.",
        "type": "string"
      },
      "name": {
        "default": "",
        "description": "name must match the name of a persistentVolumeClaim in the pod",
        "type": "string"
      }
    },
    "required": [
      "name",
      "devicePath"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.VolumeMount": {
    "description": "VolumeMount describes a mounting of a Volume within a container.",
    "properties": {
      "mountPath": {
        "default": "",
        "description": "Path within the container at which the volume should be mounted.  Must not contain ':'.",
        "type": "string"
      },
      "mountPropagation": {
        "description": "mountPropagation determines how mounts are propagated from the host to container and the other way around. When not set, MountPropagationNone is used. This field is beta in 1.10. When RecursiveReadOnly is set to IfPossible or to Enabled, MountPropagation must be None or unspecified (which defaults to None).",
        "type": "string"
      },
      "name": {
        "default": "",
        "description": "This must match the Name of a Volume.",
        "type": "string"
      },
      "readOnly": {
        "description": "Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.",
        "type": "boolean"
      },
      "recursiveReadOnly": {
        "description": "RecursiveReadOnly specifies whether read-only mounts should be handled recursively.\n\nIf ReadOnly is false, this field has no meaning and must be unspecified.\n\nIf ReadOnly is true, and this field is set to Disabled, the mount is not made recursively read-only.  If this field is set to IfPossible, the mount is made recursively read-only, if it is supported by the container runtime.  If this field is set to Enabled, the mount is made recursively read-only if it is supported by the container runtime, otherwise the pod will not be started and an error will be generated to indicate the reason.\n\nIf this field is set to IfPossible or Enabled, MountPropagation must be set to None (or be unspecified, which defaults to None).\n\nIf this field is not specified, it is treated as an equivalent of Disabled.",
        "type": "string"
      },
      "subPath": {
        "description": "Path within the volume from which the container's volume should be mounted. Defaults to \"\" (volume's root).",
        "type": "string"
      },
      "subPathExpr": {
        "description": "Expanded path within the volume from which the container's volume should be mounted. Behaves similarly to SubPath but environment variable references $(VAR_NAME) are expanded using the container's environment. Defaults to \"\" (volume's root). SubPathExpr and SubPath are mutually exclusive.",
        "type": "string"
      }
    },
    "required": [
      "name",
      "mountPath"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.VolumeMountStatus": {
    "description": "VolumeMountStatus shows status of volume mounts.",
    "properties": {
      "mountPath": {
        "default": "",
        "description": "MountPath corresponds to the original VolumeMount.",
        "type": "string"
      },
      "name": {
        "default": "",
        "description": "Name corresponds to the name of the original VolumeMount.",
        "type": "string"
      },
      "readOnly": {
        "description": "ReadOnly corresponds to the original VolumeMount.",
        "type": "boolean"
      },
      "recursiveReadOnly": {
        "description": "RecursiveReadOnly must be set to Disabled, Enabled, or unspecified (for non-readonly mounts). An IfPossible value in the original VolumeMount must be translated to Disabled or Enabled, depending on the mount result.",
        "type": "string"
      }
    },
    "required": [
      "name",
      "mountPath"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.VolumeProjection": {
    "description": "Projection that may be projected along with other supported volume types. Exactly one of these fields must be set.",
    "properties": {
      "clusterTrustBundle": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ClusterTrustBundleProjection"
          }
        ],
        "description": "ClusterTrustBundle allows a pod to access the `.spec.trustBundle` field of ClusterTrustBundle objects in an auto-updating file.\n\nAlpha, gated by the ClusterTrustBundleProjection feature gate.\n\nClusterTrustBundle objects can either be selected by name, or by the combination of signer name and a label selector.\n\nKubelet performs aggressive normalization of the PEM contents written into the pod filesystem.  Esoteric PEM features such as inter-block comments and block headers are stripped.  Certificates are deduplicated. The ordering of certificates within the file is arbitrary, and Kubelet may change the order over time."
      },
      "configMap": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ConfigMapProjection"
          }
        ],
        "description": "configMap information about the configMap data to project"
      },
      "downwardAPI": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.DownwardAPIProjection"
          }
        ],
        "description": "downwardAPI information about the downwardAPI data to project"
      },
      "secret": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.SecretProjection"
          }
        ],
        "description": "secret information about the secret data to project"
      },
      "serviceAccountToken": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.ServiceAccountTokenProjection"
          }
        ],
        "description": "serviceAccountToken is information about the serviceAccountToken data to project"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.VolumeResourceRequirements": {
    "description": "VolumeResourceRequirements describes the storage resource requirements for a volume.",
    "properties": {
      "limits": {
        "additionalProperties": {
          "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
        },
        "description": "Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
        "type": "object"
      },
      "requests": {
        "additionalProperties": {
          "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"
        },
        "description": "Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
        "type": "object"
      }
    },
    "type": "object"
  },
  "io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource": {
    "description": "Represents a vSphere volume resource.",
    "properties": {
      "fsType": {
        "description": "fsType is filesystem type to mount. Must be a filesystem type supported by the host operating system. Ex. \"ext4\", \"xfs\", \"ntfs\". Implicitly inferred to be \"ext4\" if unspecified.",
        "type": "string"
      },
      "storagePolicyID": {
        "description": "storagePolicyID is the storage Policy Based Management (SPBM) profile ID associated with the StoragePolicyName.",
        "type": "string"
      },
      "storagePolicyName": {
        "description": "storagePolicyName is the storage Policy Based Management (SPBM) profile name.",
        "type": "string"
      },
      "volumePath": {
        "default": "",
        "description": "volumePath is the path that identifies vSphere volume vmdk",
        "type": "string"
      }
    },
    "required": [
      "volumePath"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.WeightedPodAffinityTerm": {
    "description": "The weights of all of the matched WeightedPodAffinityTerm fields are added per-node to find the most preferred node(s)",
    "properties": {
      "podAffinityTerm": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.api.core.v1.PodAffinityTerm"
          }
        ],
        "default": {},
        "description": "Required. A pod affinity term, associated with the corresponding weight."
      },
      "weight": {
        "default": 0,
        "description": "weight associated with matching the corresponding podAffinityTerm, in the range 1-100.",
        "format": "int32",
        "type": "integer"
      }
    },
    "required": [
      "weight",
      "podAffinityTerm"
    ],
    "type": "object"
  },
  "io.k8s.api.core.v1.WindowsSecurityContextOptions": {
    "description": "WindowsSecurityContextOptions contain Windows-specific options and credentials.",
    "properties": {
      "gmsaCredentialSpec": {
        "description": "GMSACredentialSpec is where the GMSA admission webhook (https://github.com/kubernetes-sigs/windows-gmsa) inlines the contents of the GMSA credential spec named by the GMSACredentialSpecName field.",
        "type": "string"
      },
      "gmsaCredentialSpecName": {
        "description": "GMSACredentialSpecName is the name of the GMSA credential spec to use.",
        "type": "string"
      },
      "hostProcess": {
        "description": "HostProcess determines if a container should be run as a 'Host Process' container. All of a Pod's containers must have the same effective HostProcess value (it is not allowed to have a mix of HostProcess containers and non-HostProcess containers). In addition, if HostProcess is true then HostNetwork must also be set to true.",
        "type": "boolean"
      },
      "runAsUserName": {
        "description": "The UserName in Windows to run the entrypoint of the container process. Defaults to the user specified in image metadata if unspecified. May also be set in PodSecurityContext. If set in both SecurityContext and PodSecurityContext, the value specified in SecurityContext takes precedence.",
        "type": "string"
      }
    },
    "type": "object"
  },
  "io.k8s.apimachinery.pkg.api.resource.Quantity": {
    "description": "Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.\n\nThe serialization format is:\n\n``` <quantity>        ::= <signedNumber><suffix>\n\n\t(Note that <suffix> may be empty, from the \"\" case in <decimalSI>.)\n\n<digit>           ::= 0 | 1 | ... | 9 <digits>          ::= <digit> | <digit><digits> <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits> <sign>            ::= \"+\" | \"-\" <signedNumber>    ::= <number> | <sign><number> <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI> <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei\n\n\t(International System of units; See: http://physics.nist.gov/cuu/Units/binary.html)\n\n<decimalSI>       ::= m | \"\" | k | M | G | T | P | E\n\n\t(Note that 1024 = 1Ki but 1000 = 1k; I didn't choose the capitalization.)\n\n<decimalExponent> ::= \"e\" <signedNumber> | \"E\" <signedNumber> ```\n\nNo matter which of the three exponent forms is used, no quantity may represent a number greater than 2^63-1 in magnitude, nor may it have more than 3 decimal places. Numbers larger or more precise will be capped or rounded up. (E.g.: 0.1m will rounded up to 1m.) This may be extended in the future if we require larger or smaller quantities.\n\nWhen a Quantity is parsed from a string, it will remember the type of suffix it had, and will use the same type again when it is serialized.\n\nBefore serializing, Quantity will be put in \"canonical form\". This means that Exponent/suffix will be adjusted up or down (with a corresponding increase or decrease in Mantissa) such that:\n\n- No precision is lost - No fractional digits will be emitted - The exponent (or suffix) is as large as possible.\n\nThe sign will be omitted unless the number is negative.\n\nExamples:\n\n- 1.5 will be serialized as \"1500m\" - 1.5Gi will be serialized as \"1536Mi\"\n\nNote that the quantity will NEVER be internally represented by a floating point number. That is the whole point of this exercise.\n\nNon-canonical values will still parse as long as they are well formed, but will be re-emitted in their canonical form. (So always use canonical form, or don't diff.)\n\nThis format is intended to make it difficult to use these numbers without writing some sort of special handling code in the hopes that that will cause implementors to also use a fixed point implementation.",
    "oneOf": [
      {
        "type": "string"
      },
      {
        "type": "number"
      }
    ]
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.Condition": {
    "description": "Condition contains details for one aspect of the current state of this API Resource.",
    "properties": {
      "lastTransitionTime": {
        "allOf": [
          {
            "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time"
          }
        ],
        "description": "lastTransitionTime is the last time the condition transitioned from one status to another. This should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable."
      },
      "message": {
        "default": "",
        "description": "message is a human readable message indicating details about the transition. This may be an empty string.",
        "type": "string"
      },
      "observedGeneration": {
        "description": "observedGeneration represents the .metadata.generation that the condition was set based upon. For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date with respect to the current state of the instance.",
        "format": "int64",
        "type": "integer"
      },
      "reason": {
        "default": "",
        "description": "reason contains a programmatic identifier indicating the reason for the condition's last transition. Producers of specific condition types may define expected values and meanings for this field, and whether the values are considered a guaranteed API. The value should be a CamelCase string. This field may not be empty.",
        "type": "string"
      },
      "status": {
        "default": "",
        "description": "status of the condition, one of True, False, Unknown.",
        "type": "string"
      },
      "type": {
        "default": "",
        "description": "type of condition in CamelCase or in foo.example.com/CamelCase.",
        "type": "string"
      }
    },
    "required": [
      "type",
      "status",
      "lastTransitionTime",
      "reason",
      "message"
    ],
    "type": "object"
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector": {
    "description": "A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.",
    "properties": {
      "matchExpressions": {
        "description": "matchExpressions is a list of label selector requirements. The requirements are ANDed.",
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
      },
      "matchLabels": {
        "additionalProperties": {
          "default": "",
          "type": "string"
        },
        "description": "matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is \"key\", the operator is \"In\", and the values array contains only \"value\". The requirements are ANDed.",
        "type": "object"
      }
    },
    "type": "object",
    "x-kubernetes-map-type": "atomic"
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement": {
    "description": "A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.",
    "properties": {
      "key": {
        "default": "",
        "description": "key is the label key that the selector applies to.",
        "type": "string"
      },
      "operator": {
        "default": "",
        "description": "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist.",
        "type": "string"
      },
      "values": {
        "description": "values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.",
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
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": {
    "description": "MicroTime is version of Time with microsecond level precision.",
    "format": "date-time",
    "type": "string"
  },
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {
    "description": "IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.",
    "format": "int-or-string",
    "oneOf": [
      {
        "type": "integer"
      },
      {
        "type": "string"
      }
    ]
  }
};
