import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { createServerApp, type RegistrationNatsTls } from '@kube/registration';
import type { INestApplicationContext } from '@nestjs/common';
import { ApiServerLifecycle, DEFAULT_SERVICE_ACCOUNT_ISSUER, type AuditOptions, type AuditPolicy, type RequestLogOptions, type ServerConfig, type StructuredAuthentication } from '@kube/apiserver';
import { ensurePki, writeKubeconfig, type PkiPaths } from '@kube/pki';
import { freePort, startEtcd, tempDir, type EtcdProcess } from '@kube/testing';
import { CoreApiModule } from '../../apps/core-api/src/core-api.module';
import { AggregatorModule, FrontDoorLifecycle } from '../../apps/aggregator/src/aggregator.module';
import { ExtensionsModule } from '../../apps/extensions/src/extensions.module';
import { startControllerManager, type ControllerManagerHandle } from './controller-manager.boot';

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface CoreApiHarness {
  url: string;
  port: number;
  kubeconfig: string;
  pki: PkiPaths;
  etcd: EtcdProcess;
  app: INestApplicationContext;
  /** The controller-manager running against this server (unless started with `controllerManager: false`). */
  controllerManager?: ControllerManagerHandle;
  /** An HTTPS request as the admin (client certificate), or anonymous with `anonymous: true`. */
  request(method: string, path: string, opts?: { body?: string | Buffer; headers?: Record<string, string>; anonymous?: boolean }): Promise<HttpResult>;
  stop(): Promise<void>;
}

/** A service's NATS identity (client certificate) on a secured nats-server (see startSecuredNats). */
export type NatsTlsOf = (component: string) => RegistrationNatsTls;

function serverConfig(pki: PkiPaths, etcd: EtcdProcess, port: number, component: string, extra: Partial<ServerConfig['server']> = {}, natsUrl?: string, natsTls?: NatsTlsOf): ServerConfig {
  return {
    etcdEndpoints: [etcd.endpoint],
    natsUrl,
    natsTls: natsUrl ? natsTls?.(component) : undefined,
    servingCAPem: readFileSync(pki.caCert, 'utf8'),
    server: {
      component,
      bindAddress: '127.0.0.1',
      port,
      tls: { certPem: readFileSync(pki.apiserverCert, 'utf8'), keyPem: readFileSync(pki.apiserverKey, 'utf8') },
      authentication: {
        clientCAPem: readFileSync(pki.caCert, 'utf8'),
        requestHeader: { caPem: readFileSync(pki.frontProxyCaCert, 'utf8'), allowedNames: ['front-proxy-client'] },
        // core-api issues service-account tokens; it and the front door verify them (as npm start wires them).
        serviceAccounts: component === 'core-api' || component === 'aggregator'
          ? { issuer: DEFAULT_SERVICE_ACCOUNT_ISSUER, keyPem: readFileSync(pki.serviceAccountPub, 'utf8'), signingKeyPem: component === 'core-api' ? readFileSync(pki.serviceAccountKey, 'utf8') : undefined }
          : undefined,
      },
      ...extra,
    },
  };
}

/** An admin (client-certificate) HTTPS client for one server, and its kubeconfig. */
export async function adminAccess(pki: PkiPaths, dir: string, port: number): Promise<{ url: string; kubeconfig: string; request: CoreApiHarness['request'] }> {
  const url = `https://127.0.0.1:${port}`;
  const kubeconfig = join(dir, `kubeconfig-${port}`);
  await writeKubeconfig(kubeconfig, { server: url, caPem: readFileSync(pki.caCert, 'utf8'), clientCertPem: readFileSync(pki.adminCert, 'utf8'), clientKeyPem: readFileSync(pki.adminKey, 'utf8') });
  const ca = readFileSync(pki.caCert);
  const cert = readFileSync(pki.adminCert);
  const key = readFileSync(pki.adminKey);
  const request: CoreApiHarness['request'] = (method, path, o = {}) =>
    new Promise<HttpResult>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port, method, path, ca, ...(o.anonymous ? {} : { cert, key }), headers: { 'Content-Type': 'application/json', ...(o.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(o.body)) } : {}), ...o.headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T });
          });
        },
      );
      req.on('error', reject);
      if (o.body !== undefined) req.write(o.body);
      req.end();
    });
  return { url, kubeconfig, request };
}

/** Boots core-api in this process on a free port against its own etcd, with a PKI and admin kubeconfig. */
export async function startCoreApi(opts: { etcd?: EtcdProcess; maxRequestsInFlight?: number; requestTimeoutMs?: number; controllerManager?: boolean } = {}): Promise<CoreApiHarness> {
  const etcd = opts.etcd ?? (await startEtcd());
  const dir = tempDir('core-api');
  const pki = await ensurePki(join(dir, 'pki'));
  const config = serverConfig(pki, etcd, await freePort(), 'core-api', { maxRequestsInFlight: opts.maxRequestsInFlight, requestTimeoutMs: opts.requestTimeoutMs });
  const app = await bootCoreApi(config);
  const port = app.get(ApiServerLifecycle).port;
  const access = await adminAccess(pki, dir, port);
  // Handed out once /readyz passes, like a stack (the RBAC bootstrap policy is a readiness check).
  await untilReady(access.request);
  const controllerManager = opts.controllerManager === false ? undefined : await startControllerManager(access.url, pki);
  return {
    ...access,
    port,
    pki,
    etcd,
    app,
    controllerManager,
    stop: async () => {
      await controllerManager?.stop();
      await app.close();
      if (!opts.etcd) await etcd.stop();
    },
  };
}

async function bootCoreApi(config: ServerConfig, bootstrapManifests?: string): Promise<INestApplicationContext> {
  const app = await createServerApp(
    CoreApiModule.forRoot({ config, serviceClusterIPRange: '10.96.0.0/12', serviceNodePortRange: { base: 30000, size: 2768 }, allowLoopbackEndpoints: true, bootstrapManifests }),
    { logger: ['error', 'warn'] },
  );
  return app;
}

export interface StackHarness extends CoreApiHarness {
  /** Direct access to each backend, bypassing the aggregator. */
  core: { url: string; kubeconfig: string; request: CoreApiHarness['request'] };
  extensions: { url: string; kubeconfig: string; request: CoreApiHarness['request'] };
  apps: INestApplicationContext[];
}

/**
 * The whole control plane in this process: core-api, extensions and the aggregator in front of them, on one
 * etcd and one PKI. `url`/`kubeconfig`/`request` go through the aggregator, as a user would.
 */
export async function startStack(
  opts: {
    etcd?: EtcdProcess;
    natsUrl?: string;
    natsTls?: NatsTlsOf;
    pki?: PkiPaths;
    requestLog?: RequestLogOptions;
    auditLogPath?: string;
    auditPolicy?: AuditPolicy;
    /** The front door's audit backends (KUBE_AUDIT_LOG_*, KUBE_AUDIT_WEBHOOK_*); overrides auditLogPath. */
    audit?: AuditOptions;
    bootstrapManifests?: string;
    controllerManager?: boolean;
    /** Serving limits for every server of the stack (e.g. short read deadlines for the connection tests). */
    limits?: Pick<ServerConfig['server'], 'requestTimeoutMs' | 'readHeaderTimeoutMs'>;
    /** Encryption at rest for every server of the stack (KUBE_ENCRYPTION_PROVIDER_CONFIG). */
    encryption?: ServerConfig['encryption'];
    /** KUBE_AUTHENTICATION_CONFIG for the front door and core-api (TokenReview), as npm start wires it. */
    structuredAuthentication?: StructuredAuthentication;
    /** Checks the readiness wait leaves out (kube's /readyz?exclude=), e.g. kms-providers for a stack started with its KMS plugin down. */
    readyzExclude?: string[];
  } = {},
): Promise<StackHarness> {
  const etcd = opts.etcd ?? (await startEtcd());
  const dir = tempDir('stack');
  const pki = opts.pki ?? (await ensurePki(join(dir, 'pki')));
  const nats = opts.natsUrl;
  const extra = { ...opts.limits, requestLog: opts.requestLog };
  const withStructured = (c: ServerConfig): ServerConfig => (opts.structuredAuthentication ? { ...c, server: { ...c.server, authentication: { ...c.server.authentication, structured: opts.structuredAuthentication } } } : c);
  const core = await bootCoreApi(withStructured({ ...serverConfig(pki, etcd, await freePort(), 'core-api', extra, nats, opts.natsTls), encryption: opts.encryption }), opts.bootstrapManifests);
  const corePort = core.get(ApiServerLifecycle).port;
  const extensions = await createServerApp(ExtensionsModule.forRoot({ ...serverConfig(pki, etcd, await freePort(), 'extensions', extra, nats, opts.natsTls), encryption: opts.encryption }), { logger: ['error', 'warn'] });
  const extPort = extensions.get(ApiServerLifecycle).port;
  const ca = readFileSync(pki.caCert, 'utf8');
  const aggregator = await createServerApp(
    AggregatorModule.forRoot({
      server: withStructured({ ...serverConfig(pki, etcd, await freePort(), 'aggregator', extra, nats, opts.natsTls), encryption: opts.encryption }),
      proxyClient: { certPem: readFileSync(pki.frontProxyClientCert, 'utf8'), keyPem: readFileSync(pki.frontProxyClientKey, 'utf8') },
      backends: [
        { name: 'core-api', url: `https://127.0.0.1:${corePort}`, caPem: ca },
        { name: 'extensions', url: `https://127.0.0.1:${extPort}`, caPem: ca },
      ],
      auditLogPath: opts.auditLogPath,
      auditPolicy: opts.auditPolicy,
      audit: opts.audit,
    }),
    { logger: ['error', 'warn'] },
  );
  const port = aggregator.get(FrontDoorLifecycle).port;
  const front = await adminAccess(pki, dir, port);
  const apps = [aggregator, extensions, core];
  const coreAccess = await adminAccess(pki, dir, corePort);
  await untilReady(coreAccess.request, undefined, opts.readyzExclude);
  await untilReady(front.request, undefined, opts.readyzExclude);
  // Like kube-controller-manager: through the front door, with its own identity.
  const controllerManager = opts.controllerManager === false ? undefined : await startControllerManager(front.url, pki);
  return {
    ...front,
    port,
    pki,
    etcd,
    app: aggregator,
    apps,
    controllerManager,
    core: coreAccess,
    extensions: await adminAccess(pki, dir, extPort),
    stop: async () => {
      await controllerManager?.stop();
      for (const a of apps) await a.close();
      if (!opts.etcd) await etcd.stop();
    },
  };
}

/** Like `npm start`: a server is handed out once its /readyz passes (for a stack: the front door's, built-in APIServices exist and are Available). */
async function untilReady(request: CoreApiHarness['request'], timeoutMs = 30_000, exclude: string[] = []): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const r = await request('GET', `/readyz?verbose${exclude.map((e) => `&exclude=${encodeURIComponent(e)}`).join('')}`);
    if (r.status === 200) return;
    last = r.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the stack did not become ready in ${timeoutMs} ms:\n${last}`);
}

/** One more aggregator replica on an existing stack's etcd, PKI and backends (and NATS, when given). */
export async function startAggregatorReplica(stack: StackHarness, natsUrl?: string, natsTls?: NatsTlsOf): Promise<{ kubeconfig: string; request: CoreApiHarness['request']; stop(): Promise<void> }> {
  const ca = readFileSync(stack.pki.caCert, 'utf8');
  const app = await createServerApp(
    AggregatorModule.forRoot({
      server: serverConfig(stack.pki, stack.etcd, await freePort(), 'aggregator', {}, natsUrl, natsTls),
      proxyClient: { certPem: readFileSync(stack.pki.frontProxyClientCert, 'utf8'), keyPem: readFileSync(stack.pki.frontProxyClientKey, 'utf8') },
      backends: natsUrl ? [] : [
        { name: 'core-api', url: stack.core.url, caPem: ca },
        { name: 'extensions', url: stack.extensions.url, caPem: ca },
      ],
    }),
    { logger: ['error', 'warn'] },
  );
  const access = await adminAccess(stack.pki, tempDir('replica'), app.get(FrontDoorLifecycle).port);
  return { ...access, stop: () => app.close() };
}
