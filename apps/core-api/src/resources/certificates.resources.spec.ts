import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { certificateSigningRequestsResource } from './certificates.resources';
import { cells, create, ctx, messages, meta } from './strategy.testing';

const pem = execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', '/dev/null', '-subj', '/CN=alice'], { stdio: ['ignore', 'pipe', 'ignore'] });
const csr = (spec: Record<string, unknown>) => ({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: meta('alice'), spec });

describe('CertificateSigningRequest', () => {
  it('records the requester and prints a pending request', () => {
    const obj = csr({ request: pem.toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 86400, username: 'mallory' });
    expect(create(certificateSigningRequestsResource, obj)).toEqual([]);
    expect(obj.spec).toMatchObject({ username: ctx.user.name, groups: ctx.user.groups });
    expect(cells(certificateSigningRequestsResource, obj)).toMatchObject({ SignerName: 'kubernetes.io/kube-apiserver-client', Requestor: 'tester', RequestedDuration: '24h', Condition: 'Pending' });
  });

  it('validates request, usages, signer and duration with kube\'s messages', () => {
    const errs = messages(create(certificateSigningRequestsResource, csr({ request: Buffer.from('nope').toString('base64'), signerName: 'example', usages: ['client auth', 'client auth', 'flying'], expirationSeconds: 60 })));
    expect(errs).toEqual([
      'spec.request: Invalid value: "bm9wZQ==": PEM block type must be CERTIFICATE REQUEST',
      'spec.usages[1]: Duplicate value: "client auth"',
      expect.stringMatching(/^spec\.usages\[2\]: Unsupported value: "flying": supported values: "any", /),
      "spec.signerName: Invalid value: \"example\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    expect(messages(create(certificateSigningRequestsResource, csr({ request: pem.toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client' })))).toEqual(['spec.usages: Required value: usages must be provided']);
  });

  it('takes only conditions through approval, defaulted and timestamped', () => {
    const approval = certificateSigningRequestsResource.subresources?.approval;
    const old = csr({ request: 'x', signerName: 'a.io/b', usages: ['client auth'] });
    const next = approval?.prepareForUpdate({ ...old, spec: { request: 'changed' }, status: { conditions: [{ type: 'Approved', reason: 'KubectlApprove' }] } } as never, old as never) as unknown as { spec: { request: string }; status: { conditions: Record<string, string>[] } };
    expect(next.spec.request).toBe('x');
    expect(next.status.conditions[0]).toMatchObject({ type: 'Approved', status: 'True', reason: 'KubectlApprove' });
    expect(next.status.conditions[0].lastUpdateTime).toMatch(/Z$/);
    expect(cells(certificateSigningRequestsResource, { ...next, status: { ...next.status, certificate: 'Y2VydA==' } } as never)).toMatchObject({ Condition: 'Approved,Issued' });
    const both = { ...old, status: { conditions: [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }] } };
    expect(messages(approval?.validateUpdate?.(both as never, old as never, ctx, undefined) ?? [])[0]).toMatch(/Approved and Denied conditions are mutually exclusive$/);
  });
});
