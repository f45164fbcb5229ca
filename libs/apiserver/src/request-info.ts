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
  const parts = path.split('/').filter((p) => p !== '').map(decodeSegment);
  if (parts[0] !== 'api' && parts[0] !== 'apis') return info;
  info.apiPrefix = parts[0];
  let rest = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (rest.length < 2) return info;
    info.group = rest[0];
    rest = rest.slice(1);
  } else if (rest.length < 1) return info;
  info.version = rest[0];
  rest = rest.slice(1);
  if (rest.length === 0) return info;
  info.isResourceRequest = true;

  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  if (rest[0] === 'namespaces' && rest.length > 1) {
    info.namespace = rest[1];
    // /namespaces/<ns>/<resource>... addresses a namespaced resource; /namespaces/<ns>[/status|/finalize] the namespace.
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) rest = rest.slice(2);
  }
  info.resource = rest[0] ?? '';
  info.name = rest[1] ?? '';
  info.subresource = rest[2] ?? '';

  info.verb = kubeVerb(method, !!info.name, legacyWatch || watchParam);
  return info;
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
