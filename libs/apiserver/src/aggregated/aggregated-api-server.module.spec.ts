import type { DynamicModule } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ApiServerModule } from '../api-server.module';
import type { ServerConfig } from '../server.config';
import { alwaysAllowAuthorizer } from '../authorization/authorizer';
import { DelegatingAuthorizer } from '../authorization/delegating.authorizer';
import { AggregatedApiServerModule, aggregatedAuthorizer } from './aggregated-api-server.module';
import { SelfRegistrationModule } from './apiservice.registrar';

const config: ServerConfig = { etcdEndpoints: [], server: { component: 'widgets', bindAddress: '127.0.0.1', port: 0, tls: { certPem: '', keyPem: '' }, authentication: {} } };
const apiService = { group: 'widgets.acme.io', version: 'v1', serviceNamespace: 'default', serviceName: 'widgets-apiserver', groupPriorityMinimum: 1000, versionPriority: 15 };
const modules = (d: DynamicModule): unknown[] => (d.imports ?? []).map((m) => (m as DynamicModule).module);

describe('AggregatedApiServerModule', () => {
  it('is the generic server alone without registration options', () => {
    expect(modules(AggregatedApiServerModule.forRoot({ config, apiService, resources: [] }))).toEqual([ApiServerModule]);
  });

  it('adds self-registration of its APIService when given registration options', () => {
    const registration = { target: { url: 'https://127.0.0.1:6443', certPem: '', keyPem: '', caPem: '' }, caBundlePem: 'CA' };
    expect(modules(AggregatedApiServerModule.forRoot({ config, apiService, resources: [], registration }))).toEqual([ApiServerModule, SelfRegistrationModule]);
  });

  it('authorizes through the control plane it registers with, unless AlwaysAllow or an authorizer is given', () => {
    const registration = { target: { url: 'https://127.0.0.1:6443', certPem: '', keyPem: '', caPem: '' }, caBundlePem: 'CA' };
    expect(aggregatedAuthorizer({ config, registration })).toBeInstanceOf(DelegatingAuthorizer);
    expect(aggregatedAuthorizer({ config, registration, authorizationMode: 'AlwaysAllow' })).toBeUndefined();
    expect(aggregatedAuthorizer({ config })).toBeUndefined();
    const given = { ...config, server: { ...config.server, authorizer: alwaysAllowAuthorizer } };
    expect(aggregatedAuthorizer({ config: given, registration })).toBe(alwaysAllowAuthorizer);
  });
});
