import { describe, expect, it } from 'vitest';
import { endpointSlicesResource } from './discovery.resources';
import { ingressClassesResource, ingressesResource, networkPoliciesResource } from './networking.resources';
import { cells, create, messages, meta, update } from './strategy.testing';

const backend = { service: { name: 'api', port: { number: 80 } } };
const ingress = (paths: unknown[]) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: meta('site', 'default'), spec: { rules: [{ host: 'example.com', http: { paths } }] } });

describe('Ingress', () => {
  it('accepts a valid ingress and prints class, hosts, address and ports', () => {
    const obj = ingress([{ path: '/api', pathType: 'Prefix', backend }]);
    expect(create(ingressesResource, obj)).toEqual([]);
    expect(cells(ingressesResource, { ...obj, spec: { ...obj.spec, ingressClassName: 'nginx', tls: [{ hosts: ['example.com'] }] }, status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } } } as never)).toEqual({ Class: 'nginx', Hosts: 'example.com', Address: '10.0.0.1', Ports: '80, 443' });
  });

  it('refuses bad path types and paths with kube\'s messages', () => {
    expect(messages(create(ingressesResource, ingress([{ path: '/x', pathType: 'Wildcard', backend }])))).toEqual(['spec.rules[0].http.paths[0].pathType: Unsupported value: "Wildcard": supported values: "Exact", "ImplementationSpecific", "Prefix"']);
    expect(messages(create(ingressesResource, ingress([{ path: 'x', pathType: 'Exact', backend }])))).toEqual(['spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path']);
    expect(messages(create(ingressesResource, ingress([{ path: '/a//b', pathType: 'Prefix', backend }])))).toEqual(["spec.rules[0].http.paths[0].path: Invalid value: \"/a//b\": must not contain '//'"]);
    expect(messages(create(ingressesResource, ingress([{ path: '/', backend }])))).toEqual(['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
    expect(messages(create(ingressesResource, { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: meta('e', 'default'), spec: {} }))).toEqual(['spec: Invalid value: []: either `defaultBackend` or `rules` must be specified']);
  });

  it('keeps an IngressClass controller immutable', () => {
    const ic = { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: meta('nginx'), spec: { controller: 'k8s.io/ingress-nginx' } };
    expect(create(ingressClassesResource, ic)).toEqual([]);
    expect(messages(update(ingressClassesResource, { ...ic, spec: { controller: 'example.com/other' } }, ic))).toEqual(['spec.controller: Invalid value: "example.com/other": field is immutable']);
    expect(messages(create(ingressClassesResource, { ...ic, spec: {} }))).toEqual(['spec.controller: Required value']);
  });
});

describe('NetworkPolicy', () => {
  it('defaults policy types and port protocols', () => {
    const np = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta('np', 'default'), spec: { podSelector: { matchLabels: { app: 'web' } }, egress: [{ ports: [{ port: 53 }] }] } };
    expect(create(networkPoliciesResource, np)).toEqual([]);
    expect(np.spec).toMatchObject({ policyTypes: ['Ingress', 'Egress'], egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }] });
    expect(cells(networkPoliciesResource, np)).toEqual({ 'Pod-Selector': 'app=web' });
  });

  it('refuses unknown policy types and peerless rules', () => {
    const np = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta('np', 'default'), spec: { podSelector: {}, policyTypes: ['Sideways'], ingress: [{ from: [{}] }] } };
    expect(messages(create(networkPoliciesResource, np))).toEqual(['spec.ingress[0].from[0]: Required value: must specify a peer', 'spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"']);
  });
});

describe('EndpointSlice', () => {
  it('validates address types and addresses, and prints ports and endpoints', () => {
    const slice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: meta('s', 'default'), addressType: 'IPv4', ports: [{ port: 80 }], endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2'] }] };
    expect(create(endpointSlicesResource, slice)).toEqual([]);
    expect(slice.ports[0]).toEqual({ port: 80, protocol: 'TCP', name: '' });
    expect(cells(endpointSlicesResource, slice)).toEqual({ AddressType: 'IPv4', Ports: '80', Endpoints: '10.0.0.1,10.0.0.2' });
    expect(messages(create(endpointSlicesResource, { ...slice, endpoints: [{ addresses: ['fe80::1'] }] }))).toEqual(['endpoints[0].addresses[0]: Invalid value: "fe80::1": must be an IPv4 address']);
    expect(messages(create(endpointSlicesResource, { ...slice, addressType: 'IPv5', endpoints: [] }))).toEqual(['addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"']);
  });
});
