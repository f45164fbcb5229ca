import { Logger } from '@nestjs/common';
import { formatTimestamp } from '@kube/apiserver';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { Controller, resourcePath, type SharedIndexInformer } from '@kube/client';
import { KUBE_APISERVER_CLIENT_SIGNER, parseCertificateRequest, requestPem, signCertificateRequest, type CertificateAuthority, type CertificateSigningRequest } from '@kube/pki';
import type { ControllerContext, ManagedController } from '../controller.context';

const CSRS = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests', namespaced: false };
/** kube-controller-manager's --cluster-signing-duration default. */
export const MAX_DURATION_SECONDS = 365 * 24 * 3600;
/** What kube's kube-apiserver-client signer accepts (pkg/controller/certificates/authority: isKubeAPIServerClientCSR). */
const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];

/** Approved, not denied or failed, for this signer, without a certificate yet. */
function needsSigning(csr: CertificateSigningRequest): boolean {
  const conds = csr.status?.conditions ?? [];
  const has = (type: string): boolean => conds.some((c) => c.type === type && c.status === 'True');
  return csr.spec?.signerName === KUBE_APISERVER_CLIENT_SIGNER && has('Approved') && !has('Denied') && !has('Failed') && !csr.status?.certificate;
}

/**
 * kube-controller-manager's csrsigning controller (pkg/controller/certificates/signer) for
 * kubernetes.io/kube-apiserver-client: approved requests of that signer get a certificate from the cluster CA
 * (--cluster-signing-cert-file/--cluster-signing-key-file, the CA the front door trusts for client certificates),
 * written through the `status` subresource; requests with usages the signer does not allow get a Failed
 * condition instead. Without a signing CA the controller is not started (kube: no signer configured).
 */
export class CertificateSigningController implements ManagedController {
  readonly name = 'certificatesigningrequest-signing-controller';
  private readonly logger = new Logger('CertificateSigningController');
  readonly controller: Controller;
  private readonly csrs: SharedIndexInformer;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly ca: CertificateAuthority,
  ) {
    this.csrs = ctx.informers.informerFor(CSRS);
    this.controller = new Controller({ name: 'csrsigning-kubernetes.io/kube-apiserver-client', reconcile: (name) => this.sync(name), waitFor: [this.csrs] });
    const enqueue = (csr: KubeObject): void => {
      if (needsSigning(csr as CertificateSigningRequest)) this.controller.enqueue(csr.metadata.name as string);
    };
    this.csrs.addEventHandler({ add: enqueue, update: (_, csr) => enqueue(csr) });
  }

  start(): Promise<void> {
    this.ctx.informers.start();
    return this.controller.run();
  }

  stop(): Promise<void> {
    return this.controller.shutDown();
  }

  private async sync(name: string): Promise<void> {
    const csr = this.csrs.lister.get(name) as CertificateSigningRequest | undefined;
    if (!csr || !needsSigning(csr)) return;
    const usages = csr.spec?.usages ?? [];
    const status = structuredClone(csr.status ?? {});
    const invalid = !usages.includes('client auth') || usages.some((u) => !CLIENT_USAGES.includes(u));
    if (invalid) {
      const now = formatTimestamp(new Date());
      status.conditions = [...(status.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: `invalid usage for client certificate: ${usages.join(', ')}`, lastUpdateTime: now, lastTransitionTime: now }];
    } else {
      const duration = Math.min(csr.spec?.expirationSeconds ?? MAX_DURATION_SECONDS, MAX_DURATION_SECONDS);
      const pem = await signCertificateRequest(this.ca, parseCertificateRequest(requestPem(csr)), { usages, durationSeconds: duration });
      status.certificate = Buffer.from(pem).toString('base64');
    }
    try {
      await this.ctx.client.request('PUT', resourcePath(CSRS, undefined, name, 'status'), { body: { ...csr, status } });
    } catch (err) {
      // A stale cache (the newer object's update event queues it again) or deleted meanwhile.
      if (isStatusError(err) && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
    this.logger.log(`${invalid ? 'refused' : 'signed'} CertificateSigningRequest ${name}`);
  }
}
