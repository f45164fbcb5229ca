import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isStatusError, type KubeObject } from '@kube/apimachinery';
import { ADMISSION_REGISTRATION_GROUP, type ValidatingAdmissionPolicy } from '@kube/admission';
import { Controller, SharedIndexInformer, storageListerWatcher } from '@kube/client';
import { GenericApiServer, HealthChecks } from '@kube/apiserver';
import { SYSTEM_WRITE, systemContext } from './system.context';

const POLICIES = 'validatingadmissionpolicies';

/**
 * kube's ValidatingAdmissionPolicy status controller: once a policy's generation has been checked, its status
 * says so (`observedGeneration`, `typeChecking`), which clients wait for before they rely on a policy. Expressions
 * are compiled with dynamic types when the policy is written (and refused then), so there are no type warnings
 * to report.
 */
@Injectable()
export class ValidatingAdmissionPolicyStatusController implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly controller: Controller;
  private readonly informer: SharedIndexInformer;

  constructor(
    @Inject(GenericApiServer) private readonly server: GenericApiServer,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {
    this.informer = new SharedIndexInformer(POLICIES, storageListerWatcher(server.handler(ADMISSION_REGISTRATION_GROUP, POLICIES).store));
    this.controller = new Controller({ name: 'ValidatingAdmissionPolicyStatusController', reconcile: (name) => this.sync(name), waitFor: [this.informer] });
    const enqueue = (p: KubeObject): void => {
      if (!observed(p)) this.controller.enqueue(p.metadata.name as string);
    };
    this.informer.addEventHandler({ add: enqueue, update: (_, p) => enqueue(p) });
  }

  onApplicationBootstrap(): void {
    this.informer.run();
    void this.health.addPostStartHook('start-validating-admission-policy-status-controller', () => this.controller.run());
  }

  async onApplicationShutdown(): Promise<void> {
    this.informer.stop();
    await this.controller.shutDown();
  }

  private async sync(name: string): Promise<void> {
    const handler = this.server.handler(ADMISSION_REGISTRATION_GROUP, POLICIES);
    const policy = (await handler.store.tryGet(undefined, name)) as ValidatingAdmissionPolicy | undefined;
    if (!policy || observed(policy)) return;
    const status = { ...(policy.status ?? {}), observedGeneration: policy.metadata.generation ?? 1, typeChecking: {} };
    try {
      await handler.update(systemContext(), undefined, name, { ...policy, status } as never, SYSTEM_WRITE, 'status');
    } catch (err) {
      // Gone meanwhile: nothing to report; a conflict is retried by the queue.
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }
}

function observed(p: KubeObject): boolean {
  const status = (p as ValidatingAdmissionPolicy).status;
  return !!status?.typeChecking && status.observedGeneration === (p.metadata.generation ?? 1);
}
