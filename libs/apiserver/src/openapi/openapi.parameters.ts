import type { ParameterV3 } from './openapi-document.types';

/**
 * The query parameters kube-apiserver publishes, with its descriptions. kubectl inspects them: it sends
 * `?fieldValidation=Strict` (and skips client-side validation) when the PATCH operation of a kind lists
 * `fieldValidation`, and `--dry-run=server` requires `dryRun` there.
 */
export type QueryParameterName =
  | 'allowWatchBookmarks'
  | 'continue'
  | 'dryRun'
  | 'fieldManager'
  | 'fieldSelector'
  | 'fieldValidation'
  | 'force'
  | 'gracePeriodSeconds'
  | 'labelSelector'
  | 'limit'
  | 'orphanDependents'
  | 'propagationPolicy'
  | 'resourceVersion'
  | 'resourceVersionMatch'
  | 'timeoutSeconds'
  | 'watch';

type PrimitiveType = 'string' | 'integer' | 'boolean';

const DESCRIPTIONS: Record<QueryParameterName, [PrimitiveType, string]> = {
  allowWatchBookmarks: [
    'boolean',
    'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
  ],
  continue: [
    'string',
    'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token. If the client needs a consistent list, it must restart their list without the continue field. Otherwise, the client may send another list request with the token received with the 410 error, the server will respond with a list starting from the next key, but from the latest snapshot, which is inconsistent from the previous list results - objects that are created, modified, or deleted after the first list request will be included in the response, as long as their keys are after the "next key".\n\nThis field is not supported when watch is true. Clients may start a watch from the last resourceVersion value returned by the server and not miss any modifications.',
  ],
  dryRun: [
    'string',
    'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  ],
  fieldManager: [
    'string',
    'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.',
  ],
  fieldSelector: ['string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'],
  fieldValidation: [
    'string',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
  ],
  force: [
    'boolean',
    'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  ],
  gracePeriodSeconds: [
    'integer',
    'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
  ],
  labelSelector: ['string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'],
  limit: [
    'integer',
    'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available. Servers may choose not to support the limit argument and will return all of the available results. If limit is specified and the continue field is empty, clients may assume that no more results are available. This field is not supported if watch is true.\n\nThe server guarantees that the objects returned when using continue will be identical to issuing a single list call without a limit - that is, no objects created, modified, or deleted after the first request is issued will be included in any subsequent continued requests. This is sometimes referred to as a consistent snapshot, and ensures that a client that is using limit to receive smaller chunks of a very large result can ensure they see all possible objects. If objects are updated during a chunked list the version of the object that was present at the time the first list result was calculated is returned.',
  ],
  orphanDependents: [
    'boolean',
    'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
  ],
  propagationPolicy: [
    'string',
    "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
  ],
  resourceVersion: [
    'string',
    'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset',
  ],
  resourceVersionMatch: [
    'string',
    'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset',
  ],
  timeoutSeconds: [
    'integer',
    'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.',
  ],
  watch: [
    'boolean',
    'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.',
  ],
};

/** A query parameter as kube publishes it (kube marks every parameter uniqueItems). */
export function queryParameter(name: QueryParameterName): ParameterV3 {
  const [type, description] = DESCRIPTIONS[name];
  return { description, in: 'query', name, schema: { type, uniqueItems: true } };
}

export function queryParameters(names: readonly QueryParameterName[]): ParameterV3[] {
  return names.map(queryParameter);
}

export function nameParameter(kind: string): ParameterV3 {
  return { description: `name of the ${kind}`, in: 'path', name: 'name', required: true, schema: { type: 'string', uniqueItems: true } };
}

export const NAMESPACE_PARAMETER: ParameterV3 = {
  description: 'object name and auth scope, such as for teams and projects',
  in: 'path',
  name: 'namespace',
  required: true,
  schema: { type: 'string', uniqueItems: true },
};

/** Parameter sets per kind of operation, in kube's (alphabetical) order. */
export const LIST_PARAMETERS: readonly QueryParameterName[] = ['continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'timeoutSeconds'];
export const WATCH_PARAMETERS: readonly QueryParameterName[] = ['allowWatchBookmarks', 'watch'];
export const WRITE_PARAMETERS: readonly QueryParameterName[] = ['dryRun', 'fieldManager', 'fieldValidation'];
export const PATCH_PARAMETERS: readonly QueryParameterName[] = ['dryRun', 'fieldManager', 'fieldValidation', 'force'];
export const DELETE_PARAMETERS: readonly QueryParameterName[] = ['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy'];
export const DELETE_COLLECTION_PARAMETERS: readonly QueryParameterName[] = [
  'continue',
  'dryRun',
  'fieldSelector',
  'gracePeriodSeconds',
  'labelSelector',
  'limit',
  'orphanDependents',
  'propagationPolicy',
  'resourceVersion',
  'resourceVersionMatch',
  'timeoutSeconds',
];

/** Sorts by name, as kube does, so list + watch parameters interleave the way clients expect to read them. */
export function byName(a: ParameterV3, b: ParameterV3): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
