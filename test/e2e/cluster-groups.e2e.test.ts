import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from '@kube/pki';
import { runKubectl, tempDir } from '@kube/testing';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

/**
 * The cluster groups of issue 16 through the front door, with the oldest and the newest kubectl: HPAs seen as
 * autoscaling/v1 and v2, PDBs refusing and allowing evictions, networking, discovery, scheduling, storage and
 * kube's validation messages.
 */
describe.each(['1.27', '1.33'])('cluster groups with kubectl %s', (version) => {
  let stack: StackHarness;
  const { k, ok } = kubectlSession(version, () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists the groups in api-resources with short names', async () => {
    const resources = await ok(['api-resources']);
    expect(resources).toMatch(/^horizontalpodautoscalers\s+hpa\s+autoscaling\/v2\s+true\s+HorizontalPodAutoscaler/m);
    expect(resources).toMatch(/^poddisruptionbudgets\s+pdb\s+policy\/v1\s+true\s+PodDisruptionBudget/m);
    expect(resources).toMatch(/^ingresses\s+ing\s+networking\.k8s\.io\/v1\s+true\s+Ingress/m);
    expect(resources).toMatch(/^endpointslices\s+discovery\.k8s\.io\/v1\s+true\s+EndpointSlice/m);
    expect(resources).toMatch(/^priorityclasses\s+pc\s+scheduling\.k8s\.io\/v1\s+false\s+PriorityClass/m);
    expect(resources).toMatch(/^storageclasses\s+sc\s+storage\.k8s\.io\/v1\s+false\s+StorageClass/m);
    expect(resources).toMatch(/^runtimeclasses\s+node\.k8s\.io\/v1\s+false\s+RuntimeClass/m);
    expect(resources).toMatch(/^nodes\s+no\s+v1\s+false\s+Node/m);
    expect(resources).toMatch(/^replicationcontrollers\s+rc\s+v1\s+true\s+ReplicationController/m);
    expect(resources).toMatch(/^certificatesigningrequests\s+csr\s+certificates\.k8s\.io\/v1\s+false\s+CertificateSigningRequest/m);
  });

  it('autoscales: one HPA read as autoscaling/v2 and autoscaling/v1', async () => {
    const rc = 'apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n';
    expect(await ok(['create', '-f', '-'], rc)).toContain('replicationcontroller/web created');
    expect(await ok(['autoscale', 'rc', 'web', '--min=2', '--max=5', '--cpu-percent=60'])).toContain('autoscaled');
    // REPLICAS is the autoscaler controller's status: 0 until it has seen the HPA, then the RC's 2.
    expect(await ok(['get', 'hpa', 'web'])).toMatch(/^web\s+ReplicationController\/web\s+cpu: <unknown>\/60%\s+2\s+5\s+[02]\s+\d+s$/m);
    const v2 = await ok(['get', 'hpa.v2.autoscaling', 'web', '-o', 'yaml']);
    expect(v2).toContain('apiVersion: autoscaling/v2');
    expect(v2).toMatch(/averageUtilization: 60/);
    const raw = JSON.parse(await ok(['get', '--raw', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web']));
    expect(raw).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { targetCPUUtilizationPercentage: 60 } });
    const v1 = await ok(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'yaml']);
    expect(v1).toContain('apiVersion: autoscaling/v1');
    expect(v1).toMatch(/targetCPUUtilizationPercentage: 60/);
    // A v2-only metric survives a v1 round trip in kube's annotation.
    await ok(['patch', 'hpa.v2.autoscaling', 'web', '--type=json', '-p', '[{"op":"add","path":"/spec/metrics/-","value":{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"100Mi"}}}}]']);
    // The autoscaler controller writes the HPA's status meanwhile: a replace from a read it raced is a 409, as
    // against kube; read again and replace again.
    let replaced = false;
    for (let attempt = 0; attempt < 5 && !replaced; attempt++) {
      const v1Again = JSON.parse(await ok(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json']));
      expect(JSON.parse(v1Again.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } }]);
      const r = await k(['replace', '-f', '-'], JSON.stringify({ ...v1Again, spec: { ...v1Again.spec, maxReplicas: 7 } }));
      if (r.code !== 0) expect(r.stderr, 'only a conflict may be retried').toContain('the object has been modified');
      replaced = r.code === 0;
    }
    expect(replaced).toBe(true);
    const after = JSON.parse(await ok(['get', 'hpa.v2.autoscaling', 'web', '-o', 'json']));
    expect(after.spec.maxReplicas).toBe(7);
    expect(after.spec.metrics.map((m: { resource: { name: string } }) => m.resource.name).sort()).toEqual(['cpu', 'memory']);
    expect(after.metadata.annotations?.['autoscaling.alpha.kubernetes.io/metrics']).toBeUndefined();
    const bad = await k(['autoscale', 'rc', 'web', '--name=bad', '--min=3', '--max=2']);
    expect(bad.code).not.toBe(0);
    const all = await ok(['get', 'all']);
    // The replication controller makes the pods; with no nodes they never become ready.
    expect(all).toMatch(/^replicationcontroller\/web\s+2\s+[0-2]\s+0\s+\d+s$/m);
    expect(all).toMatch(/^horizontalpodautoscaler\.autoscaling\/web\s+ReplicationController\/web\s+/m);
  });

  it('refuses an eviction that would violate a PodDisruptionBudget and allows one it permits', async () => {
    const pod = (name: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {app: guarded}\nspec:\n  containers:\n  - name: c\n    image: nginx\n`;
    await ok(['create', '-f', '-'], pod('guarded-1'));
    await ok(['create', '-f', '-'], pod('guarded-2'));
    // Running but not ready: a pending pod would be evicted whatever the budget, as kube's eviction does.
    for (const name of ['guarded-1', 'guarded-2']) {
      await ok(['patch', 'pod', name, '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running"}}']);
    }
    expect(await ok(['create', 'pdb', 'guard', '--selector=app=guarded', '--min-available=1'])).toContain('poddisruptionbudget.policy/guard created');
    const evict = (name: string) =>
      stack.request('POST', `/api/v1/namespaces/default/pods/${name}/eviction`, { body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } }) });
    const causeOf = (r: { json<T>(): T }): string => r.json<{ details?: { causes?: { message: string }[] } }>().details?.causes?.[0]?.message ?? '';
    // No pod is ready yet: the disruption controller counts none healthy.
    expect(await until(async () => /^guard\s+1\s+N\/A\s+0\s+\d+s$/m.test(await ok(['get', 'pdb', 'guard'])) && causeOf(await evict('guarded-1')).includes('has 0 currently'))).toBe(true);
    const refused = await evict('guarded-1');
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ reason: 'TooManyRequests', message: "Cannot evict pod as it would violate the pod's disruption budget.", details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget guard needs 1 healthy pods and has 0 currently' }] } });
    // Both pods ready (the kubelet's part, done by hand): the controller allows one disruption.
    for (const name of ['guarded-1', 'guarded-2']) {
      await ok(['patch', 'pod', name, '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}']);
    }
    expect(await until(async () => /^guard\s+1\s+N\/A\s+1\s+\d+s$/m.test(await ok(['get', 'pdb', 'guard'])))).toBe(true);
    const allowed = await evict('guarded-1');
    expect(allowed.status).toBe(201);
    expect(allowed.json()).toMatchObject({ kind: 'Status', status: 'Success' });
    expect(await until(async () => (await k(['get', 'pod', 'guarded-1'])).stderr.includes('NotFound'))).toBe(true);
    const spent = await evict('guarded-2');
    expect(spent.status).toBe(429);
    expect(causeOf(spent)).toMatch(/^The disruption budget guard needs 1 healthy pods and has [12] currently$/);
    expect(await ok(['get', 'pod', 'guarded-2', '-o', 'name'])).toBe('pod/guarded-2\n');
  });

  it('creates ingresses, network policies and endpoint slices and prints them', async () => {
    expect(await ok(['create', 'ingress', 'site', '--class=nginx', '--rule=example.com/api*=api:80'])).toContain('ingress.networking.k8s.io/site created');
    expect(await ok(['get', 'ingress', 'site'])).toMatch(/^site\s+nginx\s+example\.com\s+80\s+\d+s$/m);
    const ing = JSON.parse(await ok(['get', 'ing', 'site', '-o', 'json']));
    expect(ing.spec.rules[0].http.paths[0]).toMatchObject({ path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { number: 80 } } } });
    const netpol = 'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny\nspec:\n  podSelector:\n    matchLabels: {app: web}\n  egress:\n  - ports:\n    - port: 53\n';
    await ok(['create', '-f', '-'], netpol);
    expect(await ok(['get', 'netpol', 'deny'])).toMatch(/^deny\s+app=web\s+\d+s$/m);
    const np = JSON.parse(await ok(['get', 'netpol', 'deny', '-o', 'json']));
    expect(np.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(np.spec.egress[0].ports[0].protocol).toBe('TCP');
    const slice = 'apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: api-abc\n  labels: {kubernetes.io/service-name: api}\naddressType: IPv4\nports:\n- name: http\n  port: 80\nendpoints:\n- addresses: [10.0.0.1]\n- addresses: [10.0.0.2]\n';
    await ok(['create', '-f', '-'], slice);
    expect(await ok(['get', 'endpointslices', 'api-abc'])).toMatch(/^api-abc\s+IPv4\s+80\s+10\.0\.0\.1,10\.0\.0\.2\s+\d+s$/m);
  });

  it('refuses invalid objects with kube\'s messages', async () => {
    const ingress = 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: bad\nspec:\n  rules:\n  - http:\n      paths:\n      - path: /x\n        pathType: Wildcard\n        backend:\n          service: {name: api, port: {number: 80}}\n';
    const bad = await k(['create', '-f', '-'], ingress);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('The Ingress "bad" is invalid: spec.rules[0].http.paths[0].pathType: Unsupported value: "Wildcard": supported values: "Exact", "ImplementationSpecific", "Prefix"');
    const relative = await k(['create', '-f', '-'], ingress.replace('Wildcard', 'Exact').replace('path: /x', 'path: x'));
    expect(relative.stderr).toContain('spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path');
    const slice = await k(['create', '-f', '-'], 'apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: odd\naddressType: IPv5\n');
    expect(slice.stderr).toContain('addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"');
    const pdb = await k(['create', 'pdb', 'both', '--selector=a=b', '--min-available=150%']);
    expect(pdb.stderr).toContain('spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%');
  });

  it('serves the system priority classes and protects them', async () => {
    const list = await ok(['get', 'priorityclasses']);
    expect(list).toMatch(/^system-cluster-critical\s+2000000000\s+false\s+\d+s\s+PreemptLowerPriority$/m);
    expect(list).toMatch(/^system-node-critical\s+2000001000\s+false\s+\d+s\s+PreemptLowerPriority$/m);
    const del = await k(['delete', 'pc', 'system-node-critical']);
    expect(del.stderr).toContain('priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
    await ok(['create', 'priorityclass', 'high', '--value=1000', '--description=high']);
    expect(await ok(['get', 'pc', 'high'])).toMatch(/^high\s+1000\s+false\s+\d+s\s+PreemptLowerPriority$/m);
    const reserved = await k(['create', 'priorityclass', 'system-mine', '--value=10']);
    expect(reserved.stderr).toContain("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class");
  });

  it('explains the new kinds from their OpenAPI schemas', async () => {
    const explain = await ok(['explain', 'ingress.spec']);
    expect(explain).toMatch(/KIND:\s+Ingress/);
    expect(explain).toContain('ingressClassName');
    expect(await ok(['explain', 'hpa.spec', '--api-version=autoscaling/v1'])).toContain('targetCPUUtilizationPercentage');
    expect(await ok(['explain', 'pdb.status'])).toContain('disruptionsAllowed');
  });

  it('signs an approved CSR with the cluster CA: the certificate logs in at the front door as its CN', async () => {
    const dir = tempDir('csr');
    const key = join(dir, 'alice.key');
    const csrPath = join(dir, 'alice.csr');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', csrPath, '-subj', `/CN=alice-${version}/O=devs`], { stdio: 'ignore' });
    const request = readFileSync(csrPath).toString('base64');
    const manifest = JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'alice' }, spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', expirationSeconds: 86400, usages: ['client auth'] } });
    expect(await ok(['create', '-f', '-'], manifest)).toContain('certificatesigningrequest.certificates.k8s.io/alice created');
    expect(await ok(['get', 'csr', 'alice'])).toMatch(/^alice\s+\d+s\s+kubernetes\.io\/kube-apiserver-client\s+\S+\s+24h\s+Pending$/m);
    expect(await ok(['certificate', 'approve', 'alice'])).toContain('certificatesigningrequest.certificates.k8s.io/alice approved');
    let cert = '';
    await until(async () => {
      cert = (await ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}'])).trim();
      return cert !== '';
    }, 30_000);
    expect(await ok(['get', 'csr', 'alice'])).toMatch(/Approved,Issued$/m);
    // Issued by the controller-manager's csrsigning controller through the API (core-api holds no CA key).
    const managers = JSON.parse(await ok(['get', 'csr', 'alice', '-o', 'json', '--show-managed-fields'])) as { metadata: { managedFields: Array<{ manager: string; subresource?: string }> } };
    expect(managers.metadata.managedFields).toEqual(expect.arrayContaining([expect.objectContaining({ manager: 'kube-controller-manager', subresource: 'status' })]));
    const kubeconfig = join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, { server: stack.url, caPem: readFileSync(stack.pki.caCert, 'utf8'), clientCertPem: Buffer.from(cert, 'base64').toString(), clientKeyPem: readFileSync(key, 'utf8') });
    const whoami = await runKubectl(['auth', 'whoami'], { kubeconfig, version });
    expect(whoami.stdout).toMatch(new RegExp(`Username\\s+alice-${version.replace('.', '\\.')}`));
    expect(whoami.stdout).toContain('devs');
    // Usages the kube-apiserver-client signer does not allow: approved, then Failed instead of issued.
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'web.key'), '-out', join(dir, 'web.csr'), '-subj', '/CN=web'], { stdio: 'ignore' });
    const serving = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'web' }, spec: { request: readFileSync(join(dir, 'web.csr')).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['server auth'] } };
    await ok(['create', '-f', '-'], JSON.stringify(serving));
    await ok(['certificate', 'approve', 'web']);
    expect(await until(async () => /Approved,Failed$/m.test(await ok(['get', 'csr', 'web'])), 30_000)).toBe(true);
    const failed = JSON.parse(await ok(['get', 'csr', 'web', '-o', 'json'])) as { status: { certificate?: string; conditions: Array<{ type: string; reason?: string; message?: string }> } };
    expect(failed.status.certificate).toBeUndefined();
    expect(failed.status.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Failed', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' })]));
    await ok(['delete', 'csr', 'web']);
    // Invalid requests get kube's messages.
    const bad = await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bad' }, spec: { request: Buffer.from('nope').toString('base64'), signerName: 'example', usages: [] } }));
    expect(bad.stderr).toContain('spec.request: Invalid value');
    expect(bad.stderr).toContain('PEM block type must be CERTIFICATE REQUEST');
    expect(bad.stderr).toContain('spec.usages: Required value: usages must be provided');
    expect(bad.stderr).toContain("spec.signerName: Invalid value: \"example\": must be a fully qualified domain and path of the form 'example.com/signer-name'");
  });
});
