import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { register } from 'prom-client';
import { Errors, type UserInfo } from '@kube/apimachinery';
import {
  Authenticator,
  closeGracefully,
  collectRuntimeMetrics,
  DelegatingAuthorizer,
  forbidden,
  HealthChecks,
  listenHttps,
  ProfilingHandler,
  respondWithError,
  TokenReviewAuthenticator,
  writeStatus,
  type AuthorizationAttributes,
  type HealthEndpoint,
  type SubjectAccessReviewStatus,
  type TokenReviewStatus,
} from '@kube/apiserver';
import { resourcePath, RestClient } from '@kube/client';
import { CONTROLLER_MANAGER_OPTIONS } from './controller.manager';
import type { ControllerManagerOptions } from './controller-manager.config';

const HEALTH: ReadonlySet<string> = new Set(['healthz', 'livez', 'readyz']);
const TOKEN_REVIEWS = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', namespaced: false };
const SUBJECT_ACCESS_REVIEWS = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', namespaced: false };
/** kube's anonymous user (delegating authentication allows anonymous requests; authorization decides). */
const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/**
 * kube-controller-manager's secure port: /healthz, /livez, /readyz (kube's health checks, verbose with ?verbose,
 * one check by path) and /metrics, behind kube's delegated authentication (client certificates of the cluster
 * CA, bearer tokens through a TokenReview, else system:anonymous) and delegated authorization (a
 * SubjectAccessReview; health paths always allowed, as kube's --authorization-always-allow-paths).
 */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;
  private readonly authenticator: Authenticator;
  private readonly authorizer: DelegatingAuthorizer;
  private readonly profiler: ProfilingHandler;
  port = 0;

  constructor(
    @Inject(CONTROLLER_MANAGER_OPTIONS) private readonly options: ControllerManagerOptions,
    @Inject(HealthChecks) private readonly health: HealthChecks,
    @Inject(RestClient) client: RestClient,
  ) {
    const review = async (token: string): Promise<TokenReviewStatus> =>
      (await client.request<{ status?: TokenReviewStatus }>('POST', resourcePath(TOKEN_REVIEWS), { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } })).status ?? {};
    // Client certificates of the cluster CA (the CA KUBE_CLIENT_CA_FILE names; kube reads it from extension-apiserver-authentication).
    this.authenticator = new Authenticator({ clientCAPem: options.api.caPem, tokenReview: new TokenReviewAuthenticator(review).authenticate });
    collectRuntimeMetrics();
    this.profiler = new ProfilingHandler({ enabled: options.profiling ?? true, requestTimeoutMs: 60_000 });
    this.authorizer = new DelegatingAuthorizer(
      async (spec) => (await client.request<{ status?: SubjectAccessReviewStatus }>('POST', resourcePath(SUBJECT_ACCESS_REVIEWS), { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec } })).status ?? { allowed: false },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const { serving } = this.options;
    const { server, port } = await listenHttps({ certPem: serving.certPem, keyPem: serving.keyPem, ca: this.authenticator.trustedCAs }, serving, (req, res) => void this.serve(req, res));
    this.server = server;
    this.port = port;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.server) await closeGracefully(this.server);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const [first, ...rest] = url.pathname.split('/').filter(Boolean);
    try {
      if (req.method === 'GET' && first && HEALTH.has(first)) {
        const result = await this.health.run(first as HealthEndpoint, url.searchParams.has('verbose'), rest.join('/') || undefined, url.searchParams.getAll('exclude'));
        res.writeHead(result.code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }).end(result.body);
        return;
      }
      const user = await this.authenticator.authenticate(req);
      // Credentials that do not authenticate are refused; none at all make the request anonymous.
      if (!user && req.headers.authorization) return void writeStatus(res, Errors.unauthorized());
      const attributes: AuthorizationAttributes = { user: user ?? ANONYMOUS, verb: (req.method ?? 'GET').toLowerCase(), resourceRequest: false, path: url.pathname, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
      const decision = await this.authorizer.authorize(attributes);
      if (decision.decision !== 'Allow') return void writeStatus(res, forbidden(attributes, decision.reason));
      if (req.method === 'GET' && url.pathname === '/metrics') {
        res.writeHead(200, { 'Content-Type': register.contentType }).end(await register.metrics());
        return;
      }
      try {
        if (await this.profiler.serve(req, res, url.pathname.replace(/(.)\/$/, '$1'), url.searchParams)) return;
      } catch (err) {
        return void respondWithError(res, err);
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
    } catch (err) {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${(err as Error).message}\n`);
    }
  }
}
