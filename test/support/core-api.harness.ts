import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { ApiServerLifecycle, type ServerConfig } from '@kube/apiserver';
import { ensurePki, writeKubeconfig, type PkiPaths } from '@kube/pki';
import { freePort, startEtcd, tempDir, type EtcdProcess } from '@kube/testing';
import { CoreApiModule } from '../../apps/core-api/src/core-api.module';

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
  /** An HTTPS request as the admin (client certificate), or anonymous with `anonymous: true`. */
  request(method: string, path: string, opts?: { body?: string | Buffer; headers?: Record<string, string>; anonymous?: boolean }): Promise<HttpResult>;
  stop(): Promise<void>;
}

/** Boots core-api in this process on a free port against its own etcd, with a PKI and admin kubeconfig. */
export async function startCoreApi(opts: { etcd?: EtcdProcess; maxRequestsInFlight?: number; requestTimeoutMs?: number } = {}): Promise<CoreApiHarness> {
  const etcd = opts.etcd ?? (await startEtcd());
  const dir = tempDir('core-api');
  const pki = await ensurePki(join(dir, 'pki'));
  const port = await freePort();
  const config: ServerConfig = {
    etcdEndpoints: [etcd.endpoint],
    server: {
      component: 'core-api',
      bindAddress: '127.0.0.1',
      port,
      tls: { certPem: readFileSync(pki.apiserverCert, 'utf8'), keyPem: readFileSync(pki.apiserverKey, 'utf8') },
      authentication: {
        clientCAPem: readFileSync(pki.caCert, 'utf8'),
        requestHeader: { caPem: readFileSync(pki.frontProxyCaCert, 'utf8'), allowedNames: ['front-proxy-client'] },
      },
      maxRequestsInFlight: opts.maxRequestsInFlight,
      requestTimeoutMs: opts.requestTimeoutMs,
    },
  };
  const app = await NestFactory.createApplicationContext(
    CoreApiModule.forRoot({ config, serviceClusterIPRange: '10.96.0.0/12', serviceNodePortRange: { base: 30000, size: 2768 } }),
    { logger: ['error', 'warn'] },
  );
  await app.init();
  const actualPort = app.get(ApiServerLifecycle).port;
  const url = `https://127.0.0.1:${actualPort}`;
  const kubeconfig = join(dir, 'kubeconfig');
  await writeKubeconfig(kubeconfig, { server: url, caPem: readFileSync(pki.caCert, 'utf8'), clientCertPem: readFileSync(pki.adminCert, 'utf8'), clientKeyPem: readFileSync(pki.adminKey, 'utf8') });
  const ca = readFileSync(pki.caCert);
  const cert = readFileSync(pki.adminCert);
  const key = readFileSync(pki.adminKey);
  return {
    url,
    port: actualPort,
    kubeconfig,
    pki,
    etcd,
    app,
    request: (method, path, o = {}) =>
      new Promise<HttpResult>((resolve, reject) => {
        const req = httpsRequest(
          { host: '127.0.0.1', port: actualPort, method, path, ca, ...(o.anonymous ? {} : { cert, key }), headers: { 'Content-Type': 'application/json', ...(o.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(o.body)) } : {}), ...o.headers } },
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
      }),
    stop: async () => {
      await app.close();
      if (!opts.etcd) await etcd.stop();
    },
  };
}
