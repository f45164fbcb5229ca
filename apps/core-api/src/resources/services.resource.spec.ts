import { describe, expect, it } from 'vitest';
import { servicesResource, type Service, type ServiceSpec } from './services.resource';
import { cells, create, messages, meta, update } from './strategy.testing';

const svc = (spec: ServiceSpec, name = 'web'): Service => ({ metadata: meta(name, 'default'), spec });
const created = (spec: ServiceSpec): Service => {
  const s = svc(spec);
  expect(messages(create(servicesResource, s))).toEqual([]);
  return s;
};
/** A stored service, as the allocator would leave it. */
const stored = (spec: ServiceSpec): Service => {
  const s = created(spec);
  s.spec = { ...s.spec, clusterIP: spec.clusterIP ?? '10.96.0.10', clusterIPs: [spec.clusterIP ?? '10.96.0.10'] };
  return s;
};

describe('services: resource', () => {
  it('is namespaced, in category all, with svc and a status subresource', () => {
    expect(servicesResource).toMatchObject({ kind: 'Service', shortNames: ['svc'], categories: ['all'], subresources: { status: expect.objectContaining({ verbs: ['get', 'patch', 'update'], discovered: true }) }, namespaced: true });
  });
});

describe('services: defaulting', () => {
  it('fills kube defaults for a ClusterIP service on a single-stack IPv4 cluster', () => {
    const s = created({ selector: { app: 'web' }, ports: [{ port: 80 }], clusterIP: '' });
    expect(s.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      clusterIP: '',
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
    expect(s.status).toEqual({ loadBalancer: {} });
  });

  it('keeps a requested clusterIP, mirrored into clusterIPs', () => {
    const s = created({ ports: [{ port: 80, targetPort: 'http' }], clusterIP: '10.96.0.20' });
    expect(s.spec).toMatchObject({ clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.20'], ports: [{ targetPort: 'http' }] });
  });

  it('defaults externalTrafficPolicy and allocateLoadBalancerNodePorts where they apply', () => {
    expect(created({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }).spec).toMatchObject({ externalTrafficPolicy: 'Cluster' });
    expect(created({ type: 'LoadBalancer', ports: [{ port: 80 }] }).spec).toMatchObject({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
  });

  it('gives headless selectorless services both families, as kube does', () => {
    expect(created({ clusterIP: 'None' }).spec).toMatchObject({ clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    expect(created({ clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] }).spec).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
  });

  it('leaves ExternalName services without IP fields', () => {
    const s = created({ type: 'ExternalName', externalName: 'db.example.com' });
    expect(s.spec).not.toHaveProperty('ipFamilies');
    expect(s.spec).not.toHaveProperty('internalTrafficPolicy');
  });
});

describe('services: validation', () => {
  it('checks ports: range, required unique names when several, protocols', () => {
    const s = svc({ ports: [{ port: 0 }, { name: 'web', port: 80, protocol: 'HTTP' }, { name: 'web', port: 443 }] });
    expect(messages(create(servicesResource, s))).toEqual([
      'spec.ports[0].name: Required value',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[2].name: Duplicate value: "web"',
    ]);
  });

  it('requires ports except for headless and ExternalName services', () => {
    expect(messages(create(servicesResource, svc({})))).toEqual(['spec.ports: Required value']);
  });

  it('rejects unknown types', () => {
    expect(messages(create(servicesResource, svc({ type: 'Magic', ports: [{ port: 80 }] })))).toContain(
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
  });

  it('requires externalName and no cluster IP for ExternalName services', () => {
    expect(messages(create(servicesResource, svc({ type: 'ExternalName' })))).toEqual(['spec.externalName: Required value']);
    expect(messages(create(servicesResource, svc({ type: 'ExternalName', externalName: 'db.example.com.', clusterIP: '10.96.0.5' })))).toEqual([
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
    ]);
  });

  it('accepts only IPv4 cluster IPs or None', () => {
    expect(messages(create(servicesResource, svc({ clusterIP: '10.96.0.300', ports: [{ port: 80 }] })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(messages(create(servicesResource, svc({ clusterIP: 'fd00::10', ports: [{ port: 80 }] })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: ["fd00::10"]: IPv6 is not configured on this cluster',
    ]);
    expect(messages(create(servicesResource, svc({ type: 'NodePort', clusterIP: 'None', ports: [{ port: 80 }] })))).toContain(
      'spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services',
    );
  });

  it('rejects node ports on ClusterIP services and dual-stack demands', () => {
    expect(messages(create(servicesResource, svc({ ports: [{ port: 80, nodePort: 30080 }] })))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect(messages(create(servicesResource, svc({ ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] })))).toEqual([
      'spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]);
  });

  it('validates selector labels and the DNS-1035 service name', () => {
    expect(messages(create(servicesResource, svc({ selector: { app: 'bad value' }, ports: [{ port: 80 }] })))[0]).toMatch(
      /^spec\.selector: Invalid value: "bad value": a valid label must be an empty string/,
    );
    expect(messages(create(servicesResource, svc({ ports: [{ port: 80 }] }, '1web')))[0]).toMatch(/^metadata\.name: Invalid value: "1web": a DNS-1035 label must consist/);
  });
});

describe('services: update', () => {
  it('keeps the allocated cluster IP when an update omits it', () => {
    const old = stored({ selector: { app: 'web' }, ports: [{ port: 80 }] });
    const next = svc({ selector: { app: 'web2' }, ports: [{ port: 80 }] });
    expect(messages(update(servicesResource, next, old))).toEqual([]);
    expect(next.spec).toMatchObject({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
  });

  it('refuses to change the cluster IP', () => {
    const old = stored({ ports: [{ port: 80 }] });
    const next = svc({ ...old.spec, clusterIP: '10.96.0.99' });
    expect(messages(update(servicesResource, next, old))).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.99"]: may not change once set']);
  });

  it('keeps node ports of ports that kept their name', () => {
    const old = stored({ type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: 30080 }] });
    const next = svc({ type: 'NodePort', ports: [{ name: 'http', port: 8080 }] });
    expect(messages(update(servicesResource, next, old))).toEqual([]);
    expect(next.spec?.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }]);
  });

  it('drops what the old type needed when the type changes', () => {
    const nodePort = stored({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
    const toClusterIP = svc({ ...structuredClone(nodePort.spec), type: 'ClusterIP' });
    expect(messages(update(servicesResource, toClusterIP, nodePort))).toEqual([]);
    expect(toClusterIP.spec?.ports?.[0]).not.toHaveProperty('nodePort');
    expect(toClusterIP.spec).not.toHaveProperty('externalTrafficPolicy');

    const clusterIP = stored({ ports: [{ port: 80 }] });
    const toExternal = svc({ ...structuredClone(clusterIP.spec), type: 'ExternalName', externalName: 'example.com' });
    expect(messages(update(servicesResource, toExternal, clusterIP))).toEqual([]);
    expect(toExternal.spec).not.toHaveProperty('clusterIP');
    expect(toExternal.spec).not.toHaveProperty('ipFamilies');
  });

  it('keeps status out of spec updates', () => {
    const old = stored({ type: 'LoadBalancer', ports: [{ port: 80 }] });
    old.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } };
    const next = svc({ ...structuredClone(old.spec) });
    next.status = { loadBalancer: {} };
    update(servicesResource, next, old);
    expect(next.status).toEqual(old.status);
  });
});

describe('services: printing', () => {
  const withStatus = (spec: ServiceSpec, status?: Service['status']): Service => ({ ...svc(spec), status });

  it('prints a ClusterIP service like kubectl get svc -o wide', () => {
    const s = withStatus({ type: 'ClusterIP', clusterIPs: ['10.96.0.10'], ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { tier: 'web', app: 'x' } });
    expect(cells(servicesResource, s)).toEqual({
      Type: 'ClusterIP',
      'Cluster-IP': '10.96.0.10',
      'External-IP': '<none>',
      'Port(s)': '80/TCP,53/UDP',
      Age: '10m',
      Selector: 'app=x,tier=web',
    });
  });

  it('prints node ports, load balancer addresses and external names', () => {
    const np = withStatus({ type: 'NodePort', clusterIPs: ['10.96.0.11'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] });
    expect(cells(servicesResource, np)).toMatchObject({ 'Port(s)': '80:30080/TCP', 'External-IP': '<none>', Selector: '<none>' });
    const pending = withStatus({ type: 'LoadBalancer', ports: [] }, { loadBalancer: {} });
    expect(cells(servicesResource, pending)).toMatchObject({ 'External-IP': '<pending>', 'Port(s)': '<none>', 'Cluster-IP': '<none>' });
    const lb = withStatus({ type: 'LoadBalancer', externalIPs: ['5.6.7.8'] }, { loadBalancer: { ingress: [{ ip: '2.2.2.2' }, { hostname: 'lb.example.com' }, { ip: '1.1.1.1' }] } });
    expect(cells(servicesResource, lb)).toMatchObject({ 'External-IP': '1.1.1.1,2.2.2.2,lb.example.com,5.6.7.8' });
    const ext = withStatus({ type: 'ExternalName', externalName: 'db.example.com' });
    expect(cells(servicesResource, ext)).toMatchObject({ 'External-IP': 'db.example.com', 'Cluster-IP': '<none>' });
    const headless = withStatus({ type: 'ClusterIP', clusterIPs: ['None'], externalIPs: ['9.9.9.9'] });
    expect(cells(servicesResource, headless)).toMatchObject({ 'Cluster-IP': 'None', 'External-IP': '9.9.9.9' });
  });

  it('puts Selector after Age and only in wide output', () => {
    expect(servicesResource.tableColumns?.map((c) => [c.name, c.priority ?? 0])).toEqual([
      ['Type', 0],
      ['Cluster-IP', 0],
      ['External-IP', 0],
      ['Port(s)', 0],
      ['Age', 0],
      ['Selector', 1],
    ]);
  });
});
