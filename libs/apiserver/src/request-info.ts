/** What a request is about, parsed from its method and path (kube's RequestInfoFactory). */
export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: string;
  apiPrefix: 'api' | 'apis' | '';
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * /api/v1/namespaces/ns/configmaps/name/status, /apis/g/v/..., and the legacy /api/v1/watch/... prefix.
 * The verb is kube's: get/list/watch/create/update/patch/delete/deletecollection.
 */
export function parseRequestInfo(method: string, path: string, watchParam: boolean): RequestInfo {
  const info: RequestInfo = { isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', group: '', version: '', namespace: '', resource: '', subresource: '', name: '' };
  const parts = segments(path);
  if (parts[0] !== 'api' && parts[0] !== 'apis') return info;
  info.apiPrefix = parts[0];
  // `at`: the next segment to read (an index, not slices: this runs for every request).
  let at = 1;
  if (info.apiPrefix === 'apis') {
    if (parts.length - at < 2) return info;
    info.group = parts[at++];
  } else if (parts.length - at < 1) return info;
  info.version = parts[at++];
  if (at === parts.length) return info;
  info.isResourceRequest = true;

  let legacyWatch = false;
  if (parts[at] === 'watch') {
    legacyWatch = true;
    at++;
  }
  if (parts[at] === 'namespaces' && parts.length - at > 1) {
    info.namespace = parts[at + 1];
    // /namespaces/<ns>/<resource>... addresses a namespaced resource; /namespaces/<ns>[/status|/finalize] the namespace.
    if (parts.length - at > 2 && !NAMESPACE_SUBRESOURCES.has(parts[at + 2])) at += 2;
  }
  info.resource = parts[at] ?? '';
  info.name = parts[at + 1] ?? '';
  info.subresource = parts[at + 2] ?? '';

  info.verb = kubeVerb(method, !!info.name, legacyWatch || watchParam);
  return info;
}

/** The path's non-empty segments, percent-decoded (only a path with a '%' needs decoding). */
function segments(path: string): string[] {
  const parts = path.split('/');
  let n = 0;
  const decode = path.includes('%');
  for (let i = 0; i < parts.length; i++) if (parts[i] !== '') parts[n++] = decode ? decodeSegment(parts[i]) : parts[i];
  parts.length = n;
  return parts;
}

function kubeVerb(method: string, hasName: boolean, watch: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (watch) return 'watch';
      return hasName ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
