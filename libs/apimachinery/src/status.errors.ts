import { GoLiteral } from './go-literal';
import type { Status, StatusCause, StatusDetails } from './types';

/** A resource name qualified by its group, as kube prints it: "configmaps", "deployments.apps". */
export interface GroupResource {
  group: string;
  resource: string;
}

export interface GroupKind {
  group: string;
  kind: string;
}

export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StoreReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable'
  | '';

export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function qualifiedKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** An API error carrying the metav1.Status a kube-apiserver would answer with. */
export class StatusError extends Error {
  readonly status: Status;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'StatusError';
    this.status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: reason || undefined,
      details,
      code,
    };
    if (!reason) delete this.status.reason;
    if (!details) delete this.status.details;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string {
    return this.status.reason ?? '';
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

export function reasonOf(err: unknown): string {
  return isStatusError(err) ? err.reason : '';
}

const grDetails = (gr: GroupResource, name: string): StatusDetails => {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return d;
};

export const Errors = {
  notFound(gr: GroupResource, name: string): StatusError {
    const msg = name ? `${qualifiedResource(gr)} "${name}" not found` : `${qualifiedResource(gr)} not found`;
    return new StatusError(404, 'NotFound', msg, grDetails(gr, name));
  },
  alreadyExists(gr: GroupResource, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, grDetails(gr, name));
  },
  conflict(gr: GroupResource, name: string, why: string): StatusError {
    return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, grDetails(gr, name));
  },
  /** The optimistic-concurrency conflict kubectl users know. */
  modified(gr: GroupResource, name: string): StatusError {
    return Errors.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  invalid(gk: GroupKind, name: string, causes: FieldError[]): StatusError {
    const body = causes.length === 1 ? causes[0].toString() : `[${causes.map((c) => c.toString()).join(', ')}]`;
    const details: StatusDetails = { name, group: gk.group || undefined, kind: gk.kind, causes: causes.map((c) => c.toCause()) };
    if (!details.group) delete details.group;
    return new StatusError(422, 'Invalid', `${qualifiedKind(gk)} "${name}" is invalid: ${body}`, details);
  },
  badRequest(message: string): StatusError {
    return new StatusError(400, 'BadRequest', message);
  },
  methodNotSupported(gr: GroupResource, action: string): StatusError {
    return new StatusError(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualifiedResource(gr)}"`, grDetails(gr, ''));
  },
  forbidden(gr: GroupResource, name: string, why: string): StatusError {
    const msg = name ? `${qualifiedResource(gr)} "${name}" is forbidden: ${why}` : `${qualifiedResource(gr)} is forbidden: ${why}`;
    return new StatusError(403, 'Forbidden', msg, grDetails(gr, name));
  },
  unauthorized(message = 'Unauthorized'): StatusError {
    return new StatusError(401, 'Unauthorized', message);
  },
  gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  },
  expired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  },
  /** The watch/list error for a resourceVersion that etcd has compacted. */
  tooOldResourceVersion(requested: number | string, current: number | string): StatusError {
    return Errors.expired(`too old resource version: ${requested} (${current})`);
  },
  /** kube's etcd3 store for a list at a compacted revision (interpretListError's `expired`). */
  listExpired(): StatusError {
    return Errors.expired('The resourceVersion for the provided list is too old.');
  },
  /** kube's etcd3 watcher for a watch from a compacted revision (interpretWatchError). */
  watchExpired(): StatusError {
    return Errors.expired('The resourceVersion for the provided watch is too old.');
  },
  /** A compacted continue token: with `token` (kube's inconsistentContinue), the Status's ListMeta carries it. */
  continueExpired(token?: string): StatusError {
    if (!token) return Errors.expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
    const err = Errors.expired(
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    );
    err.status.metadata.continue = token;
    return err;
  },
  tooManyRequests(message = 'Too many requests, please try again later.', retryAfterSeconds = 1): StatusError {
    return new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds });
  },
  serviceUnavailable(message: string, retryAfterSeconds?: number): StatusError {
    return new StatusError(503, 'ServiceUnavailable', message, retryAfterSeconds ? { retryAfterSeconds } : undefined);
  },
  timeout(message = 'request did not complete within requested timeout - context deadline exceeded'): StatusError {
    return new StatusError(504, 'Timeout', `Timeout: ${message}`, {});
  },
  serverTimeout(gr: GroupResource, operation: string, retryAfterSeconds = 2): StatusError {
    return new StatusError(500, 'ServerTimeout', `The ${operation} operation against ${qualifiedResource(gr)} could not be completed at this time, please try again.`, {
      ...grDetails(gr, ''),
      retryAfterSeconds,
    });
  },
  requestEntityTooLarge(message: string): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
  },
  unsupportedMediaType(contentType: string, accepted: string[]): StatusError {
    return new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
      contentType ? { causes: [{ reason: 'UnexpectedServerResponse', message: contentType }] } : undefined,
    );
  },
  notAcceptable(accepted: string[]): StatusError {
    return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
  },
  internal(err: unknown): StatusError {
    const text = err instanceof Error ? err.message : String(err);
    return new StatusError(500, 'InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
  },
};

/** Converts anything thrown into the Status a client should see. */
export function toStatus(err: unknown): Status {
  return isStatusError(err) ? err.status : Errors.internal(err).status;
}

export function successStatus(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueNotFound'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

/** Formats a bad value the way Go's field.Error does (strings quoted, numbers bare). */
function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof GoLiteral) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One validation failure at a field path (k8s.io/apimachinery/pkg/util/validation/field.Error). */
export class FieldError {
  constructor(
    readonly type: FieldErrorType,
    readonly field: string,
    readonly detail: string,
    readonly value?: unknown,
    readonly hasValue = false,
  ) {}

  static required(field: string, detail = ''): FieldError {
    return new FieldError('FieldValueRequired', field, detail);
  }
  static invalid(field: string, value: unknown, detail: string): FieldError {
    return new FieldError('FieldValueInvalid', field, detail, value, true);
  }
  static notSupported(field: string, value: unknown, supported: string[]): FieldError {
    const detail = supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '';
    return new FieldError('FieldValueNotSupported', field, detail, value, true);
  }
  static notFound(field: string, value: unknown): FieldError {
    return new FieldError('FieldValueNotFound', field, '', value, true);
  }
  static duplicate(field: string, value: unknown): FieldError {
    return new FieldError('FieldValueDuplicate', field, '', value, true);
  }
  static forbidden(field: string, detail: string): FieldError {
    return new FieldError('FieldValueForbidden', field, detail);
  }
  /** field.TooLong as kube 1.33 words it ("must have at most 262144 bytes"). */
  static tooLong(field: string, value: unknown, max: number): FieldError {
    return new FieldError('FieldValueTooLong', field, max >= 0 ? `must have at most ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long', value, false);
  }
  static tooMany(field: string, actual: number, max: number): FieldError {
    return new FieldError('FieldValueTooMany', field, `must have at most ${max} items`, actual, false);
  }
  static typeInvalid(field: string, value: unknown, detail: string): FieldError {
    return new FieldError('FieldValueTypeInvalid', field, detail, value, true);
  }

  private label(): string {
    switch (this.type) {
      case 'FieldValueRequired':
        return 'Required value';
      case 'FieldValueInvalid':
        return 'Invalid value';
      case 'FieldValueNotSupported':
        return 'Unsupported value';
      case 'FieldValueNotFound':
        return 'Not found';
      case 'FieldValueDuplicate':
        return 'Duplicate value';
      case 'FieldValueForbidden':
        return 'Forbidden';
      case 'FieldValueTooLong':
        return 'Too long';
      case 'FieldValueTooMany':
        return 'Too many';
      case 'FieldValueTypeInvalid':
        return 'Invalid value';
      default:
        return 'Internal error';
    }
  }

  /** The message without the field path, e.g. `Invalid value: "x": must be ...`. */
  body(): string {
    let s = this.label();
    if (this.hasValue) s += `: ${formatValue(this.value)}`;
    if (this.detail) s += `: ${this.detail}`;
    return s;
  }

  toString(): string {
    return this.field ? `${this.field}: ${this.body()}` : this.body();
  }

  toCause(): StatusCause {
    return { reason: this.type, message: this.body(), field: this.field };
  }
}
