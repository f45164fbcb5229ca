/**
 * The SDK's client of the control plane is @kubernetes/client-node, the library teams already know: ApiClient
 * only sets it up for a target (the front door's URL and a client certificate) and makes its failures the
 * server's Status. Use `kubeConfig` for anything client-node offers (typed APIs with
 * `kubeConfig.makeApiClient(CoreV1Api)`, informers with `makeInformer`), and `objects` / `metadata` for the
 * generic object API.
 */
import { Agent } from 'node:https';
import {
  ApiException,
  createConfiguration,
  type KubernetesListObject,
  type KubernetesObject,
  KubeConfig,
  KubernetesObjectApi,
  type RequestContext,
  type ResponseContext,
  ServerConfiguration,
} from '@kubernetes/client-node';
import { StatusError, type Status, type StatusReason } from '@kube/apimachinery';
import type { SubjectAccessReviewSpec, SubjectAccessReviewStatus } from '../authorization/delegating.authorizer';
import type { TokenReviewStatus } from './token-review.authenticator';

/** Where and as whom to talk to the control plane: the aggregator URL and a client certificate. */
export interface RegistrationTarget {
  url: string;
  certPem: string;
  keyPem: string;
  /** CA that signed the aggregator's serving certificate. */
  caPem: string;
}

/** What kube's metadata client asks for: PartialObjectMetadata(List), JSON as the fallback. */
const METADATA_ONLY = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

/** A KubeConfig with one cluster, one certificate user and a context joining them. */
export function kubeConfigFor(target: RegistrationTarget, user = 'sdk'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kube-ts', server: target.url, caData: Buffer.from(target.caPem).toString('base64'), skipTLSVerify: false }],
    users: [{ name: user, certData: Buffer.from(target.certPem).toString('base64'), keyData: Buffer.from(target.keyPem).toString('base64') }],
    contexts: [{ name: 'kube-ts', cluster: 'kube-ts', user }],
    currentContext: 'kube-ts',
  });
  return kc;
}

export class ApiClient {
  readonly kubeConfig: KubeConfig;
  /** client-node's generic object API: any kind the server serves, found through discovery. */
  readonly objects: KubernetesObjectApi;
  /** The same API asking for metadata only (PartialObjectMetadata), as kube's metadata client does. */
  readonly metadata: KubernetesObjectApi;
  /** client-node makes a TLS agent per request; one keep-alive agent lets repeated reads reuse a connection. */
  private readonly agent: Agent;

  constructor(target: RegistrationTarget) {
    this.kubeConfig = kubeConfigFor(target);
    this.agent = new Agent({ keepAlive: true, cert: target.certPem, key: target.keyPem, ca: target.caPem });
    const reuseAgent = { pre: async (ctx: RequestContext) => (ctx.setAgent(this.agent), ctx), post: async (ctx: ResponseContext) => ctx };
    const askMetadata = { pre: async (ctx: RequestContext) => (ctx.setHeaderParam('Accept', METADATA_ONLY), ctx), post: async (ctx: ResponseContext) => ctx };
    const api = (...promiseMiddleware: Array<typeof reuseAgent>): KubernetesObjectApi =>
      new KubernetesObjectApi(createConfiguration({ baseServer: new ServerConfiguration(target.url, {}), authMethods: { default: this.kubeConfig }, promiseMiddleware }));
    this.objects = api(reuseAgent);
    this.metadata = api(reuseAgent, askMetadata);
  }

  /** Runs a client-node call; a refusal becomes the server's Status (a 404 stays a NotFound). */
  async call<T>(what: string, fn: (client: this) => Promise<T>): Promise<T> {
    try {
      return await fn(this);
    } catch (err) {
      throw err instanceof ApiException ? statusErrorOf(err, what) : err;
    }
  }

  /** A collection (all namespaces when `namespace` is not given), as the server's Status when refused. */
  list<T extends KubernetesObject = KubernetesObject>(apiVersion: string, kind: string, namespace?: string, opts: { metadataOnly?: boolean } = {}): Promise<KubernetesListObject<T>> {
    const api = opts.metadataOnly ? this.metadata : this.objects;
    return this.call(`list ${kind} ${apiVersion}`, () => api.list<T>(apiVersion, kind, namespace));
  }

  /** One object, as the server's Status when refused. */
  read<T extends KubernetesObject = KubernetesObject>(apiVersion: string, kind: string, name: string, namespace?: string): Promise<T> {
    return this.call(`get ${kind} ${name}`, () => this.objects.read<T>({ apiVersion, kind, metadata: { name, namespace } }));
  }

  /** Asks the control plane whether `spec`'s user may do what it says (a SubjectAccessReview, nothing stored). */
  async subjectAccessReview(spec: SubjectAccessReviewSpec): Promise<SubjectAccessReviewStatus> {
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec };
    const answer = await this.call('create subjectaccessreviews', () => this.objects.create(review));
    return ((answer as { status?: SubjectAccessReviewStatus }).status ?? { allowed: false });
  }

  /** Asks the control plane who `token` authenticates (a TokenReview, nothing stored). */
  async tokenReview(token: string): Promise<TokenReviewStatus> {
    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token } };
    const answer = await this.call('create tokenreviews', () => this.objects.create(review));
    return (answer as { status?: TokenReviewStatus }).status ?? {};
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The Status a server answered with, or one made up from the code when the body is not a Status. */
export function statusErrorOf(err: ApiException<unknown>, what: string): StatusError {
  const body = typeof err.body === 'string' ? parseJson(err.body) : err.body;
  const status = (body && typeof body === 'object' ? body : {}) as Partial<Status>;
  const reason = ((status.kind === 'Status' && status.reason) || 'InternalError') as StatusReason;
  const text = typeof err.body === 'string' ? err.body : JSON.stringify(err.body ?? '');
  return new StatusError(err.code, reason, status.message ?? `${what}: ${err.code} ${text.slice(0, 200)}`, status.details);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
