import { Errors, FieldError } from '@kube/apimachinery';
import type { ListQuery } from './rest.handler';

/**
 * Query parameters decoded as kube's parameter codec decodes them (apimachinery runtime conversion
 * Convert_Slice_string_To_*): the first value of a repeated parameter wins, unknown parameters are ignored,
 * booleans are false only when absent, "0" or "false" (any case), integers are strconv.ParseInt base 10
 * and anything else is a 400 carrying Go's error text.
 */
export interface QueryValues {
  get(name: string): string | null;
}

/** Convert_Slice_string_To_bool: absent, "0" and "false" (any case) are false; anything else, "" included, is true. */
export function queryBool(query: QueryValues, name: string): boolean {
  const v = query.get(name);
  return v !== null && v !== '0' && v.toLowerCase() !== 'false';
}

/** Convert_Slice_string_To_Pointer_bool: as queryBool, but an absent parameter stays unset. */
export function queryOptionalBool(query: QueryValues, name: string): boolean | undefined {
  return query.get(name) === null ? undefined : queryBool(query, name);
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** strconv.ParseInt(v, 10, 64); the error as the parameter codec reports it (400 BadRequest). */
export function parseInt64(value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw Errors.badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`);
  const n = BigInt(value);
  if (n > INT64_MAX || n < INT64_MIN) throw Errors.badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: value out of range`);
  return Number(n);
}

/** An int64 parameter, undefined when absent. */
export function queryInt64(query: QueryValues, name: string): number | undefined {
  const v = query.get(name);
  return v === null ? undefined : parseInt64(v);
}

/** Go's %q of a string (strconv.Quote) for the printable ASCII kube's messages carry. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

export type ResourceVersionMatch = 'Exact' | 'NotOlderThan';

/** meta/internalversion ListOptions as a LIST or WATCH request carries them, after kube's defaulting. */
export interface ListWatchOptions extends ListQuery {
  watch: boolean;
  allowWatchBookmarks: boolean;
  /** WatchList: undefined when not asked for (and not defaulted). */
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

/**
 * WatchList (sendInitialEvents) is served, as kube-apiserver does with the WatchList feature gate on: a
 * watch then starts with the current state, ends it with a BOOKMARK annotated k8s.io/initial-events-end.
 */
const WATCH_LIST_ENABLED = true;

/**
 * Decodes, defaults (SetListOptionsDefaults) and validates (ValidateListOptions) the options of a LIST or a
 * WATCH. Invalid combinations are kube's 422 on `ListOptions.meta.k8s.io ""`.
 */
export function listOptions(query: QueryValues, watch: boolean): ListWatchOptions {
  const opts: ListWatchOptions = {
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector: query.get('fieldSelector') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') || undefined,
    limit: queryInt64(query, 'limit'),
    continue: query.get('continue') || undefined,
    watch,
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks'),
    sendInitialEvents: queryOptionalBool(query, 'sendInitialEvents'),
    timeoutSeconds: queryInt64(query, 'timeoutSeconds'),
  };
  setListOptionsDefaults(opts);
  const errors = watch ? validateWatchOptions(opts) : validateListOnlyOptions(opts);
  if (errors.length) throw Errors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errors);
  return opts;
}

/** A watch without a resourceVersion (or "0") is a WatchList that starts with the current state. */
function setListOptionsDefaults(opts: ListWatchOptions): void {
  if (!WATCH_LIST_ENABLED || opts.sendInitialEvents !== undefined || opts.resourceVersionMatch) return;
  if (opts.watch && (!opts.resourceVersion || opts.resourceVersion === '0')) {
    opts.sendInitialEvents = true;
    opts.resourceVersionMatch = 'NotOlderThan';
  }
}

function validateListOnlyOptions(opts: ListWatchOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch;
  if (match) {
    if (!opts.resourceVersion) errs.push(FieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (opts.continue) errs.push(FieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(FieldError.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && opts.resourceVersion === '0') errs.push(FieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (opts.sendInitialEvents !== undefined) errs.push(FieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

function validateWatchOptions(opts: ListWatchOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch;
  if (opts.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') errs.push(FieldError.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (!WATCH_LIST_ENABLED) errs.push(FieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (match) {
    if (opts.sendInitialEvents === undefined) errs.push(FieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(FieldError.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (opts.continue) errs.push(FieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}
