/** Starts apps/controller-manager in the test process against a stack (or a lone core-api), as its own identity. */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { PkiPaths } from '@kube/pki';
import { ControllerManagerModule } from '../../apps/controller-manager/src/controller-manager.module';
import { ControllerManager } from '../../apps/controller-manager/src/controller.manager';
import { HealthServer } from '../../apps/controller-manager/src/health.server';
import type { ControllerManagerOptions } from '../../apps/controller-manager/src/controller-manager.config';

export interface ControllerManagerHandle {
  app: INestApplicationContext;
  manager: ControllerManager;
  /** The health and metrics port. */
  port: number;
  stop(): Promise<void>;
}

/** A controller-manager talking to `url` with the system:kube-controller-manager certificate of `pki`. */
export async function startControllerManager(url: string, pki: PkiPaths, opts: Partial<ControllerManagerOptions> = {}): Promise<ControllerManagerHandle> {
  const pem = (path: string): string => readFileSync(path, 'utf8');
  const app = await NestFactory.createApplicationContext(
    ControllerManagerModule.forRoot({
      api: { url, caPem: pem(pki.caCert), certPem: pem(pki.controllerManagerCert), keyPem: pem(pki.controllerManagerKey), userAgent: 'kube-controller-manager/test' },
      serving: { bindAddress: '127.0.0.1', port: 0, certPem: pem(pki.apiserverCert), keyPem: pem(pki.apiserverKey) },
      rootCaPem: pem(pki.caCert),
      // The cluster CA signs approved kube-apiserver-client CSRs, as npm start wires it.
      clusterSigning: { certPem: pem(pki.caCert), keyPem: pem(pki.caKey) },
      // Tests wait for handovers: kube's timings scaled down.
      leaderElection: { leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 500 },
      ...opts,
    }),
    { logger: ['error', 'warn'] },
  );
  await app.init();
  return { app, manager: app.get(ControllerManager), port: app.get(HealthServer).port, stop: () => app.close() };
}
