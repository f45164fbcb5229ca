import { Module, type DynamicModule } from '@nestjs/common';
import { ApiServerModule, NamespaceLifecycleAdmission, type ResourceDefinition, type ServerConfig } from '@kube/apiserver';
import type { KubeObject } from '@kube/apimachinery';
import { customResourceDefinitionsResource } from './crd/customresourcedefinitions.resource';
import { CLEANUP_FINALIZER, terminatingStatus } from './controllers/crd.conditions';
import { CustomResourceDefinitionController } from './controllers/crd.controller';
import { TerminatingCustomResources } from './controllers/terminating.admission';
import type { CustomResourceDefinition } from './crd/crd.types';

/** The first DELETE of a CRD adds the cleanup finalizer and marks it Terminating (kube's CRD REST Delete). */
const crdResource: ResourceDefinition = {
  ...customResourceDefinitionsResource,
  hooks: {
    pendingFinalizers: (obj) => !obj.metadata.deletionTimestamp,
    onDeletionStarted: (obj: KubeObject) => {
      const crd = obj as unknown as CustomResourceDefinition;
      const finalizers = crd.metadata.finalizers ?? [];
      if (!finalizers.includes(CLEANUP_FINALIZER)) crd.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
      crd.status = terminatingStatus(crd, 'InstanceDeletionPending', 'CustomResourceDefinition marked for deletion; instance deletion pending');
    },
  },
};

/**
 * extensions: apiextensions.k8s.io/v1 CustomResourceDefinitions and, through the CRD controller, every custom
 * resource they define, on the same generic API server as core-api.
 */
@Module({})
export class ExtensionsModule {
  static forRoot(config: ServerConfig): DynamicModule {
    const terminating = new TerminatingCustomResources();
    return {
      module: ExtensionsModule,
      imports: [
        ApiServerModule.forRoot({
          config,
          resources: [crdResource],
          admission: (storage) => [new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), terminating],
        }),
      ],
      providers: [{ provide: TerminatingCustomResources, useValue: terminating }, CustomResourceDefinitionController],
    };
  }
}
