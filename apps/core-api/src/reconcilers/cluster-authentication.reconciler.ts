import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { KubeObject } from '@kube/apimachinery';
import { EXTENSION_APISERVER_AUTHENTICATION, GenericApiServer, HealthChecks, SERVER_CONFIG, extensionApiserverAuthenticationData, retrying, type ServerConfig } from '@kube/apiserver';
import { SYSTEM_WRITE, systemContext } from './system.context';

/** kube-system may not exist yet on a fresh cluster (the bootstrap controller makes it), and writes may conflict: retry a while. */
const RETRIES = 100;
const RETRY_DELAY_MS = 300;

/**
 * kube's cluster-authentication-trust controller: publishes whom this control plane trusts (client CA, front
 * proxy CA, allowed names and headers) in kube-system/extension-apiserver-authentication, where aggregated
 * servers read it. Written at start (a post-start hook), so a changed configuration replaces the old one.
 */
@Injectable()
export class ClusterAuthenticationTrustController implements OnApplicationBootstrap {
  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.health.addPostStartHook('start-cluster-authentication-info-controller', () => retrying(() => this.reconcile(), RETRIES, RETRY_DELAY_MS));
  }

  async reconcile(): Promise<void> {
    const { namespace, name } = EXTENSION_APISERVER_AUTHENTICATION;
    const data = extensionApiserverAuthenticationData(this.config.server.authentication);
    const handler = this.server.handler('', 'configmaps');
    const current = await handler.store.tryGet(namespace, name);
    if (current && JSON.stringify((current as KubeObject & { data?: unknown }).data ?? {}) === JSON.stringify(data)) return;
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
    // kube's controller creates it when missing (a PUT does not create ConfigMaps), else replaces it.
    if (current) await handler.update(systemContext(), namespace, name, configMap, SYSTEM_WRITE);
    else await handler.create(systemContext(), namespace, configMap, SYSTEM_WRITE);
  }
}
