import { Errors, FieldError, type DeleteOptions, type JsonValue } from '@kube/apimachinery';
import { GO_BOOL, GO_INT64, GO_STRING, goDecodeError, goNamedString, goSlice, goStruct } from '@kube/apimachinery';
import { queryInt64 } from './query.params';

/** metav1.DeleteOptions as Go's decoder sees it. */
const DELETE_OPTIONS_GO_TYPE = goStruct('v1.DeleteOptions', {
  kind: GO_STRING,
  apiVersion: GO_STRING,
  gracePeriodSeconds: GO_INT64,
  preconditions: goStruct('v1.Preconditions', { uid: goNamedString('types.UID'), resourceVersion: GO_STRING }),
  orphanDependents: GO_BOOL,
  propagationPolicy: goNamedString('v1.DeletionPropagation'),
  dryRun: goSlice(GO_STRING),
  ignoreStoreReadErrorWithClusterBreakingPotential: GO_BOOL,
});

/** What kube's serializer says of a body that is no JSON object (it reads apiVersion/kind into this struct first). */
const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'];
const DRY_RUN_ALL = 'All';

/**
 * The DeleteOptions of a DELETE or DELETE collection: the body (meta.k8s.io/v1 or the group's DeleteOptions), with
 * the query's parameters on top. kube reads the query only when there is no body; a `dryRun` anywhere counts
 * here, so that a dry run is never taken for a real delete. Refused as kube refuses them: 400 for a body that does
 * not decode, 422 for options ValidateDeleteOptions rejects.
 */
export function decodeDeleteOptions(body: JsonValue | undefined, query: URLSearchParams): DeleteOptions {
  let options: DeleteOptions = {};
  if (body !== undefined) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      const kind = Array.isArray(body) ? 'array' : body === null ? 'null' : typeof body === 'boolean' ? 'bool' : typeof body;
      throw Errors.badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${kind} into Go value of type ${FIND_KIND_TYPE}`);
    }
    const err = goDecodeError(body, DELETE_OPTIONS_GO_TYPE);
    if (err) throw Errors.badRequest(err);
    options = withoutNulls(body) as DeleteOptions;
  }
  const grace = queryInt64(query, 'gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const orphan = query.get('orphanDependents');
  if (orphan !== null) options.orphanDependents = orphan === 'true';
  const policy = query.get('propagationPolicy');
  if (policy) options.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  const dryRun = query.getAll('dryRun');
  if (dryRun.length) options.dryRun = [...new Set([...(options.dryRun ?? []), ...dryRun])];
  validateDeleteOptions(options);
  return options;
}

/** dryrun.IsDryRun: any value asks for a dry run (only "All" passes validation). */
export function isDryRun(options: { dryRun?: readonly string[] }): boolean {
  return (options.dryRun?.length ?? 0) > 0;
}

/** ValidateDryRun (apimachinery meta/v1/validation): the dryRun values of any write's options. */
export function validateDryRun(dryRun: readonly string[]): FieldError[] {
  return dryRun.every((d) => d === DRY_RUN_ALL) ? [] : [FieldError.notSupported('dryRun', dryRun, [DRY_RUN_ALL])];
}

/** ValidateDeleteOptions: 422 on meta.k8s.io DeleteOptions with every cause. */
function validateDeleteOptions(options: DeleteOptions): void {
  const errors: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errors.push(FieldError.invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (options.propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(options.propagationPolicy)) {
    errors.push(FieldError.notSupported('propagationPolicy', options.propagationPolicy, [...PROPAGATION_POLICIES, 'nil']));
  }
  errors.push(...validateDryRun(options.dryRun ?? []));
  if (errors.length) throw Errors.invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errors);
}

/** A JSON null leaves a Go field unset. */
function withoutNulls(body: Record<string, JsonValue>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(body)) if (v !== null) out[k] = v;
  return out;
}
