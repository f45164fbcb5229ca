import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, SharedInformerFactory } from '@kube/client';
import { GenericApiServer, nowTimestamp } from '@kube/apiserver';
import { parseCertificateRequest, signCertificateRequest, type CertificateAuthority } from '@kube/pki';
import { CLUSTER_SIGNING_CA } from '../core-api.tokens';
import { KUBE_APISERVER_CLIENT_SIGNER, requestPem, type CertificateSigningRequest } from '../resources/certificates.resources';
import { SYSTEM_WRITE, systemContext } from './system.context';

const GROUP = 'certificates.k8s.io';
/** kube-controller-manager's --cluster-signing-duration default. */
const MAX_DURATION_SECONDS = 365 * 24 * 3600;
/** What kube's kube-apiserver-client signer accepts (pkg/controller/certificates/authority: isKubeAPIServerClientCSR). */
const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];

/**
 * kube-controller-manager's csrsigning controller for kubernetes.io/kube-apiserver-client, hosted in core-api
 * until apps/controller-manager takes it: approved requests of that signer get a certificate from the cluster CA
 * (the CA the front door trusts for client certificates), so the CSR's subject can log in with it. Requests with
 * usages the signer does not allow get a Failed condition instead.
 */
@Injectable()
export class CertificateSigningController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CertificateSigningController');
  private readonly controller: Controller | undefined;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(SharedInformerFactory) private readonly informers: SharedInformerFactory,
    @Optional() @Inject(CLUSTER_SIGNING_CA) private readonly ca?: Promise<CertificateAuthority | undefined>,
  ) {
    if (!ca) return;
    const csrs = informers.informerFor({ group: GROUP, resource: 'certificatesigningrequests' });
    const controller = new Controller({ name: 'CertificateSigningController', reconcile: (name) => this.sync(name), waitFor: [csrs] });
    const enqueue = (csr: KubeObject): void => {
      if (needsSigning(csr as CertificateSigningRequest)) controller.enqueue(csr.metadata.name as string);
    };
    csrs.addEventHandler({ add: enqueue, update: (_, csr) => enqueue(csr) });
    this.controller = controller;
  }

  onApplicationBootstrap(): void {
    if (!this.controller) return;
    this.informers.start();
    void this.controller.run();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.controller?.shutDown();
  }

  private async sync(name: string): Promise<void> {
    const ca = await this.ca;
    if (!ca) return;
    const handler = this.server.handler(GROUP, 'certificatesigningrequests');
    const csr = (await handler.get(undefined, name).catch((err: unknown) => (isStatusError(err) && err.code === 404 ? undefined : Promise.reject(err)))) as CertificateSigningRequest | undefined;
    if (!csr || !needsSigning(csr)) return;
    const usages = csr.spec?.usages ?? [];
    const status = structuredClone(csr.status ?? {});
    const invalid = !usages.includes('client auth') || usages.some((u) => !CLIENT_USAGES.includes(u));
    if (invalid) {
      const now = nowTimestamp();
      status.conditions = [...(status.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: `invalid usage for client certificate: ${usages.join(', ')}`, lastUpdateTime: now, lastTransitionTime: now }];
    } else {
      const duration = Math.min(csr.spec?.expirationSeconds ?? MAX_DURATION_SECONDS, MAX_DURATION_SECONDS);
      const pem = await signCertificateRequest(ca, parseCertificateRequest(requestPem(csr)), { usages, durationSeconds: duration });
      status.certificate = Buffer.from(pem).toString('base64');
    }
    await handler.update(systemContext(), undefined, name, { ...csr, status } as never, SYSTEM_WRITE, 'status');
    this.logger.log(`${invalid ? 'refused' : 'signed'} CertificateSigningRequest ${name}`);
  }
}

/** Approved, not denied or failed, for this signer, without a certificate yet. */
function needsSigning(csr: CertificateSigningRequest): boolean {
  const conds = csr.status?.conditions ?? [];
  const has = (type: string): boolean => conds.some((c) => c.type === type && c.status === 'True');
  return csr.spec?.signerName === KUBE_APISERVER_CLIENT_SIGNER && has('Approved') && !has('Denied') && !has('Failed') && !csr.status?.certificate;
}
