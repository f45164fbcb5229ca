/** Starts an aggregated API server module in the test process, registered through a test stack's aggregator. */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { issueCertificate, loadCertificateAuthority } from '@kube/pki';
import { createServerApp } from '@kube/registration';
import { issueServingCertificate, type AggregatedServerOptions, type RegistrationTarget, type ServerConfig } from '@kube/apiserver';
import { freePort } from '@kube/testing';
import type { StackHarness } from './core-api.harness';

const pem = (path: string): string => readFileSync(path, 'utf8');

export interface AggregatedServerBoot {
  /** Name in logs and metrics. */
  component: string;
  /** <service>.<namespace>.svc of its APIService: the serving certificate's DNS name. */
  serviceDnsName: string;
  module(options: AggregatedServerOptions & { admin: RegistrationTarget }): DynamicModule;
  /** The user it registers and reads the control plane as (a client certificate from the stack's CA); default the admin. */
  user?: string;
}

/** The admin identity of the stack, as the aggregated-server helpers take it. */
export function adminTarget(stack: StackHarness): RegistrationTarget {
  return { url: stack.url, certPem: pem(stack.pki.adminCert), keyPem: pem(stack.pki.adminKey), caPem: pem(stack.pki.caCert) };
}

async function userTarget(stack: StackHarness, user: string): Promise<RegistrationTarget> {
  const ca = await loadCertificateAuthority(stack.pki.caCert, stack.pki.caKey);
  const cert = await issueCertificate(ca, { commonName: user, usage: 'client' });
  return { url: stack.url, certPem: cert.certPem, keyPem: cert.keyPem, caPem: pem(stack.pki.caCert) };
}

/** Its own serving certificate from the stack's CA, front-proxy trust, and self-registration with the stack. */
export async function bootAggregatedServer(stack: StackHarness, boot: AggregatedServerBoot): Promise<INestApplicationContext> {
  const { pki } = stack;
  const serving = await issueServingCertificate(pki.caCert, pki.caKey, { serviceDnsName: boot.serviceDnsName, addresses: ['127.0.0.1'] });
  const port = await freePort();
  const config: ServerConfig = {
    etcdEndpoints: [stack.etcd.endpoint],
    server: {
      component: boot.component,
      bindAddress: '127.0.0.1',
      port,
      tls: { certPem: serving.certPem, keyPem: serving.keyPem },
      authentication: {
        clientCAPem: pem(pki.caCert),
        requestHeader: { caPem: pem(pki.frontProxyCaCert), allowedNames: ['front-proxy-client'] },
      },
    },
  };
  const admin = adminTarget(stack);
  const target = boot.user ? await userTarget(stack, boot.user) : admin;
  const app = await createServerApp(boot.module({ config, registration: { target, caBundlePem: serving.caPem }, admin }), { logger: ['error', 'warn'] });
  return app;
}
