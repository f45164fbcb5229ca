/**
 * The streaming subresources kube-apiserver answers by dialling a kubelet or a pod (pkg/registry/core/pod/rest:
 * LogREST, ExecREST, AttachREST, PortForwardREST, ProxyREST; nodes/proxy, services/proxy): kube's validation and
 * errors in kube's order, then, since no kubelet listens behind a node here, the answer a simulated node gives
 * (an empty log) or the error kube-apiserver returns when it cannot dial the kubelet or the pod.
 */
import { Errors, FieldError, StatusError, type KubeObject } from '@kube/apimachinery';
import type { ConnectRequest, SubresourceStrategy } from '@kube/apiserver';
import type { StorageInterface } from '@kube/storage';

/** What the node and service lookups read (kube's ConnectionInfoGetter reads the Node; services/proxy the Endpoints). */
export interface ConnectStores {
  nodes: StorageInterface;
  endpoints: StorageInterface;
}

interface Container {
  name: string;
  ports?: Array<{ containerPort?: number }>;
}

interface ContainerStatus {
  name: string;
  restartCount?: number;
  state?: { waiting?: { reason?: string } };
}

interface Pod extends KubeObject {
  spec?: { nodeName?: string; containers?: Container[]; initContainers?: Container[]; ephemeralContainers?: Container[] };
  status?: { podIP?: string; containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[]; ephemeralContainerStatuses?: ContainerStatus[] };
}

interface Node extends KubeObject {
  status?: { addresses?: Array<{ type: string; address: string }>; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } };
}

const SIMULATED_NODE_LABEL = 'kube-ts.io/simulated-node';
const CORE_V1 = { group: '', version: 'v1' };
/** kube-apiserver's --kubelet-preferred-address-types default. */
const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
/** What a dial where nothing listens gets; simulated addresses have no kubelet and no pod behind them. */
const REFUSED = 'connect: connection refused';
const PROXY_VERBS = ['create', 'delete', 'get', 'patch', 'update'] as const;

function hostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** kube's error for a dial nothing answers: a plain Go error, so a 500 Status without a reason. */
function dialError(message: string): StatusError {
  return new StatusError(500, '', message);
}

function allContainers(pod: Pod): Container[] {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])];
}

/** kube's validateContainer (strategy.go): the container named, or the pod's only one. */
export function validateContainer(container: string, pod: Pod): string {
  const name = pod.metadata.name as string;
  if (!container) {
    const containers = pod.spec?.containers ?? [];
    if (containers.length === 1) return containers[0].name;
    if (containers.length === 0) throw Errors.badRequest(`a container name must be specified for pod ${name}`);
    throw Errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${allContainers(pod).map((c) => c.name).join(' ')}]`);
  }
  if (!allContainers(pod).some((c) => c.name === container)) throw Errors.badRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/** kube's NodeConnectionInfoGetter: the node's preferred address and its kubelet port. */
async function kubeletAddress(stores: ConnectStores, nodeName: string): Promise<{ node: Node; host: string }> {
  let node: Node;
  try {
    node = (await stores.nodes.get(undefined, nodeName)) as Node;
  } catch {
    throw Errors.notFound({ group: '', resource: 'nodes' }, nodeName);
  }
  const addresses = node.status?.addresses ?? [];
  const address = PREFERRED_ADDRESS_TYPES.map((t) => addresses.find((a) => a.type === t && a.address)).find(Boolean);
  if (!address) throw dialError(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(' ')}]`);
  return { node, host: hostPort(address.address, node.status?.daemonEndpoints?.kubeletEndpoint?.Port || 10250) };
}

function isSimulated(node: Node): boolean {
  return node.metadata.labels?.[SIMULATED_NODE_LABEL] === 'true';
}

function statusOf(pod: Pod, container: string): ContainerStatus | undefined {
  const s = pod.status;
  return [...(s?.initContainerStatuses ?? []), ...(s?.containerStatuses ?? []), ...(s?.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
}

function int(query: URLSearchParams, key: string): number | undefined {
  const raw = query.get(key);
  if (raw === null) return undefined;
  const n = Number(raw);
  // kube's parameter codec: a value that is no integer fails the conversion.
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(n)) throw Errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  return n;
}

function bool(query: URLSearchParams, key: string): boolean {
  const v = query.get(key);
  return v !== null && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** kube's ValidatePodLogOptions. */
export function validateLogOptions(query: URLSearchParams): FieldError[] {
  const errs: FieldError[] = [];
  const tailLines = int(query, 'tailLines');
  const limitBytes = int(query, 'limitBytes');
  const sinceSeconds = int(query, 'sinceSeconds');
  if (tailLines !== undefined && tailLines < 0) errs.push(FieldError.invalid('tailLines', tailLines, 'must be greater than or equal to 0'));
  if (limitBytes !== undefined && limitBytes < 1) errs.push(FieldError.invalid('limitBytes', limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && query.has('sinceTime')) errs.push(FieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (sinceSeconds !== undefined && sinceSeconds < 1) errs.push(FieldError.invalid('sinceSeconds', sinceSeconds, 'must be greater than 0'));
  return errs;
}

/** kube's 422 on PodLogOptions; Go's field.Error prints its path even when empty (`: Forbidden: at most one ...`). */
export function invalidLogOptions(name: string, errs: FieldError[]): StatusError {
  const err = Errors.invalid({ group: '', kind: 'PodLogOptions' }, name, errs);
  const each = errs.map((e) => `${e.field}: ${e.body()}`);
  err.status.message = `PodLogOptions "${name}" is invalid: ${each.length === 1 ? each[0] : `[${each.join(', ')}]`}`;
  return err;
}

/**
 * GET pods/<name>/log. A simulated node's container printed nothing: 200 with an empty text/plain body; with
 * follow=true the stream stays open (no bytes) until the pod is gone or the client leaves.
 */
function podLog(pods: StorageInterface, stores: ConnectStores): SubresourceStrategy {
  return {
    verbs: ['get'],
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    connecter: {
      kind: { ...CORE_V1, kind: 'Pod' },
      async connect(r: ConnectRequest): Promise<number> {
        const errs = validateLogOptions(r.query);
        if (errs.length) throw invalidLogOptions(r.name, errs);
        const pod = (await r.get(r.name)) as Pod;
        const container = validateContainer(r.query.get('container') ?? '', pod);
        const nodeName = pod.spec?.nodeName;
        // kube's LocationStreamer without a location: no content.
        if (!nodeName) {
          r.res.writeHead(204);
          r.res.end();
          return 204;
        }
        const { node, host } = await kubeletAddress(stores, nodeName);
        const ns = pod.metadata.namespace as string;
        if (!isSimulated(node)) throw dialError(`Get "https://${host}/containerLogs/${ns}/${pod.metadata.name}/${container}": dial tcp ${host}: ${REFUSED}`);
        // What the kubelet answers (400, relayed by kube's GenericHttpResponseChecker).
        const status = statusOf(pod, container);
        if (bool(r.query, 'previous') && !status?.restartCount) throw Errors.badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name}" not found`);
        const waiting = status?.state?.waiting;
        if (!status || waiting) throw Errors.badRequest(`container "${container}" in pod "${pod.metadata.name}" is waiting to start: ${waiting?.reason || 'ContainerCreating'}`);
        r.res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
        if (!bool(r.query, 'follow')) {
          r.res.end();
          return 200;
        }
        r.res.flushHeaders();
        await followUntilGone(pods, pod, r);
        return 200;
      },
    },
  };
}

/** Holds a followed log open until the pod is deleted (its stream ends as a kubelet's does) or the client goes. */
async function followUntilGone(pods: StorageInterface, pod: Pod, r: ConnectRequest): Promise<void> {
  const channel = await pods.watch(pod.metadata.namespace, { resourceVersion: pod.metadata.resourceVersion, predicate: (o) => o.metadata.uid === pod.metadata.uid });
  await new Promise<void>((resolve) => {
    const done = (): void => {
      channel.close();
      if (!r.res.writableEnded) r.res.end();
      resolve();
    };
    // The response closes when the client goes (its HTTP/1 socket or, behind the front door, its HTTP/2 stream).
    r.res.once('close', done);
    void (async () => {
      for await (const event of channel) if (event.type === 'DELETED') break;
      done();
    })().catch(done);
  });
}

/** exec, attach and portforward (ExecREST, AttachREST, PortForwardREST): kube's checks, then the kubelet dial. */
function podStream(kind: string, what: 'exec' | 'attach' | 'portforward', stores: ConnectStores): SubresourceStrategy {
  return {
    verbs: ['create', 'get'],
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    connecter: {
      kind: { ...CORE_V1, kind },
      async connect(r: ConnectRequest): Promise<number> {
        const pod = (await r.get(r.name)) as Pod;
        const name = pod.metadata.name as string;
        if (what !== 'portforward') validateContainer(r.query.get('container') ?? '', pod);
        if (what === 'exec' && !r.query.getAll('command').length) throw Errors.badRequest('you must specify at least 1 command');
        const nodeName = pod.spec?.nodeName;
        if (!nodeName) throw Errors.badRequest(`pod ${name} does not have a host assigned`);
        const { host } = await kubeletAddress(stores, nodeName);
        // kube's UpgradeAwareHandler when the kubelet cannot be dialled.
        throw dialError(`error dialing backend: dial tcp ${host}: ${REFUSED}`);
      },
    },
  };
}

/** `name`, `name:port` or `scheme:name:port` (kube's net.SplitSchemeNamePort). */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } {
  const parts = id.split(':');
  if (parts.length === 1) return { scheme: '', name: parts[0], port: '' };
  if (parts.length === 2) return { scheme: '', name: parts[0], port: parts[1] };
  if (parts.length === 3 && (parts[0] === 'http' || parts[0] === 'https' || parts[0] === '')) return { scheme: parts[0], name: parts[1], port: parts[2] };
  throw Errors.badRequest(`invalid request ${id}`);
}

function isGlobalUnicast(ip: string): boolean {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) {
    const [a, b] = ip.split('.').map(Number);
    return !(a === 0 || a === 127 || a >= 224 || (a === 169 && b === 254) || ip === '255.255.255.255');
  }
  return ip.includes(':') && !/^(::1?|fe80:|ff)/i.test(ip);
}

/** pods/proxy (kube's pod ResourceLocation): the pod's IP and a port, then the dial. */
function podProxy(): SubresourceStrategy {
  return {
    verbs: PROXY_VERBS,
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    connecter: {
      kind: { ...CORE_V1, kind: 'PodProxyOptions' },
      async connect(r: ConnectRequest): Promise<number> {
        const { name, port: named } = splitSchemeNamePort(r.name);
        const pod = (await r.get(name)) as Pod;
        const port = named || String((pod.spec?.containers ?? []).find((c) => c.ports?.length)?.ports?.[0]?.containerPort ?? '');
        const ip = pod.status?.podIP ?? '';
        if (!ip || !isGlobalUnicast(ip)) throw Errors.badRequest('address not allowed');
        const host = port ? hostPort(ip, port) : ip.includes(':') ? `[${ip}]` : ip;
        throw dialError(`dial tcp ${port ? host : hostPort(ip, 80)}: ${REFUSED}`);
      },
    },
  };
}

/** nodes/proxy: the node's kubelet, which no simulated node has. */
function nodeProxy(stores: ConnectStores): SubresourceStrategy {
  return {
    verbs: PROXY_VERBS,
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    connecter: {
      kind: { ...CORE_V1, kind: 'NodeProxyOptions' },
      async connect(r: ConnectRequest): Promise<number> {
        const { name } = splitSchemeNamePort(r.name);
        await r.get(name);
        const { host } = await kubeletAddress(stores, name);
        throw dialError(`dial tcp ${host}: ${REFUSED}`);
      },
    },
  };
}

interface Endpoints extends KubeObject {
  subsets?: Array<{ addresses?: Array<{ ip: string }>; ports?: Array<{ name?: string; port: number }> }>;
}

interface Service extends KubeObject {
  spec?: { ports?: Array<{ name?: string; port: number }> };
}

/** services/proxy (kube's service ResourceLocation): a ready endpoint address for the port, then the dial. */
function serviceProxy(stores: ConnectStores): SubresourceStrategy {
  return {
    verbs: PROXY_VERBS,
    discovered: true,
    prepareForUpdate: (_incoming, old) => old,
    connecter: {
      kind: { ...CORE_V1, kind: 'ServiceProxyOptions' },
      async connect(r: ConnectRequest): Promise<number> {
        const { name, port } = splitSchemeNamePort(r.name);
        const svc = (await r.get(name)) as Service;
        const ns = svc.metadata.namespace;
        // A numeric port names the service port it is, whose name the endpoints carry.
        const portName = svc.spec?.ports?.find((p) => String(p.port) === port)?.name ?? port;
        const noEndpoints = Errors.serviceUnavailable(`no endpoints available for service "${r.name}"`);
        let eps: Endpoints;
        try {
          eps = (await stores.endpoints.get(ns, name)) as Endpoints;
        } catch {
          throw noEndpoints;
        }
        for (const subset of eps.subsets ?? []) {
          const p = (subset.ports ?? []).find((sp) => (sp.name ?? '') === portName);
          const ip = subset.addresses?.[0]?.ip;
          if (p && ip) throw dialError(`dial tcp ${hostPort(ip, p.port)}: ${REFUSED}`);
        }
        throw noEndpoints;
      },
    },
  };
}

/** The pods' streaming subresources, by name. */
export function podConnectSubresources(pods: StorageInterface, stores: ConnectStores): Record<string, SubresourceStrategy> {
  return {
    attach: podStream('PodAttachOptions', 'attach', stores),
    exec: podStream('PodExecOptions', 'exec', stores),
    log: podLog(pods, stores),
    portforward: podStream('PodPortForwardOptions', 'portforward', stores),
    proxy: podProxy(),
  };
}

export { nodeProxy as nodeProxySubresource, serviceProxy as serviceProxySubresource };
