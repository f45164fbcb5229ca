/**
 * Admission configuration for an aggregated server read through the control plane's API, as kube's aggregated
 * servers read it with their informers: webhook configurations, policies and Namespaces listed and watched
 * through the front door, parameter objects, Services and Endpoints read on demand, as the server's registration
 * identity (which must be allowed to read them).
 */
import { Agent, request, type RequestOptions } from 'node:https';
import { createInterface } from 'node:readline';
import { StatusError, type KubeObject, type LabelSelector, type Status, type StatusReason } from '@kube/apimachinery';
import { guessResource, type AdmissionBackend } from '@kube/admission';
import { SharedIndexInformer, type ListerWatcher, type WatchEvent, type WatchStream } from '@kube/client';
import { resolveServiceEndpoint, type ObjectReader } from '../service.resolver';
import type { RegistrationTarget } from './api.client';

interface Response {
  status: number;
  body: string;
}

/** A non-2xx answer as the Status the control plane sent (or one made from the code). */
export function statusError(res: Response, what: string): StatusError {
  let status: Partial<Status> = {};
  try {
    status = JSON.parse(res.body) as Partial<Status>;
  } catch {
    // not a Status
  }
  return new StatusError(res.status, ((status.kind === 'Status' && status.reason) || 'InternalError') as StatusReason, status.message ?? `${what}: ${res.status}`, status.details);
}

/** The API path of a collection: `/api/v1[/namespaces/<ns>]/<resource>` or `/apis/<group>/<version>/…`. */
export function collectionPath(apiVersion: string, resource: string, namespace?: string): string {
  const root = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return namespace ? `${root}/namespaces/${namespace}/${resource}` : `${root}/${resource}`;
}

/** The control plane's API as an aggregated server's own identity (its registration target), over keep-alive HTTPS. */
export class ControlPlaneReader {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(target: RegistrationTarget) {
    this.url = new URL(target.url);
    this.agent = new Agent({ keepAlive: true, cert: target.certPem, key: target.keyPem, ca: target.caPem });
  }

  private options(path: string, method = 'GET', headers: Record<string, string> = {}): RequestOptions {
    return { agent: this.agent, hostname: this.url.hostname.replace(/^\[|\]$/g, ''), port: this.url.port || 443, path, method, headers: { Accept: 'application/json', ...headers } };
  }

  get(path: string): Promise<Response> {
    return this.send('GET', path);
  }

  /** One request with a JSON body (or none); the answer whatever its status. */
  send(method: string, path: string, body?: unknown): Promise<Response> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {};
    return new Promise((resolve, reject) => {
      const req = request(this.options(path, method, headers), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: timeout`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** One object, undefined when it does not exist. */
  async read(path: string): Promise<KubeObject | undefined> {
    const res = await this.get(path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw statusError(res, `GET ${path}`);
    return JSON.parse(res.body) as KubeObject;
  }

  listerWatcher(path: string): ListerWatcher {
    return {
      list: async () => {
        const res = await this.get(path);
        if (res.status !== 200) throw statusError(res, `list ${path}`);
        const list = JSON.parse(res.body) as { items?: KubeObject[]; metadata?: { resourceVersion?: string } };
        return { items: list.items ?? [], resourceVersion: list.metadata?.resourceVersion ?? '' };
      },
      watch: (resourceVersion) => this.watch(`${path}?watch=true&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(resourceVersion)}`),
    };
  }

  /** A watch as a stream of events; an ERROR event ends it with its Status (410 makes the reflector relist). */
  private watch(path: string): Promise<WatchStream> {
    return new Promise((resolve, reject) => {
      const req = request(this.options(path), (res) => {
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => reject(statusError({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }, `watch ${path}`)));
          return;
        }
        const stream: WatchStream & { error?: Error } = {
          close: () => req.destroy(),
          async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
            try {
              for await (const line of createInterface({ input: res })) {
                if (!line.trim()) continue;
                const ev = JSON.parse(line) as { type: string; object: KubeObject };
                if (ev.type === 'ERROR') {
                  const status = ev.object as unknown as Status;
                  stream.error = new StatusError(status.code ?? 500, (status.reason ?? 'InternalError') as StatusReason, status.message ?? 'watch error');
                  return;
                }
                yield ev as WatchEvent;
              }
            } catch {
              // a cut connection ends the watch; the reflector resumes from the last resourceVersion
            }
          },
        };
        resolve(stream);
      });
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Admission reading through the control plane (an aggregated server's registration target). */
export function controlPlaneAdmissionBackend(target: RegistrationTarget): AdmissionBackend {
  const reader = new ControlPlaneReader(target);
  const namespaces = new SharedIndexInformer('namespaces (control plane)', reader.listerWatcher('/api/v1/namespaces'));
  let namespacesSynced: Promise<void> | undefined;
  const objectReader = (resource: string): ObjectReader => ({ tryGet: (ns, name) => reader.read(`${collectionPath('v1', resource, ns)}/${encodeURIComponent(name)}`) });
  const services = { services: objectReader('services'), endpoints: objectReader('endpoints') };
  return {
    listerWatcher: (kind) => reader.listerWatcher(collectionPath('admissionregistration.k8s.io/v1', kind)),
    namespace: async (name) => {
      namespacesSynced ??= (namespaces.run(), namespaces.waitForSync());
      await namespacesSynced;
      return namespaces.lister.get(name);
    },
    objects: async (apiVersion: string, kind: string, namespace: string | undefined, name: string | undefined, selector: LabelSelector) => {
      const path = collectionPath(apiVersion, guessResource(kind), namespace || undefined);
      if (name) {
        const one = await reader.read(`${path}/${encodeURIComponent(name)}`);
        return one ? [one] : [];
      }
      const res = await reader.get(path);
      if (res.status !== 200) throw statusError(res, `list ${path}`);
      return ((JSON.parse(res.body) as { items?: KubeObject[] }).items ?? []).filter((o) => selector.matches(o.metadata.labels));
    },
    resolveService: (ref) => resolveServiceEndpoint(services, ref),
    stop: () => {
      namespaces.stop();
      reader.close();
    },
  };
}

/** A watch that delivers nothing until closed (there is nothing to watch). */
function idleWatch(): WatchStream {
  let wake: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (wake = resolve));
  return {
    close: () => wake(),
    async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
      await closed;
    },
  };
}

/**
 * An aggregated server with no control plane to read from (not registered with one) whose etcd role confines it
 * to its own prefix: no webhook or policy configuration, no namespaces to match selectors against.
 */
export function noControlPlaneAdmissionBackend(): AdmissionBackend {
  return {
    listerWatcher: () => ({ list: async () => ({ items: [], resourceVersion: '0' }), watch: async () => idleWatch() }),
    namespace: async () => undefined,
    objects: async () => [],
  };
}
