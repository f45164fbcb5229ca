import { Module, type DynamicModule } from '@nestjs/common';
import { ResourceQuotaAdmission } from '@kube/admission';
import { ApiServerModule, NamespaceLifecycleAdmission, type ServerConfig } from '@kube/apiserver';
import { Storage } from '@kube/storage';
import { customResourceDefinitionsResource } from './crd/customresourcedefinitions.resource';
import { CustomResourceDefinitionController } from './reconcilers/crd.reconciler';
import { TerminatingCustomResources } from './reconcilers/terminating.admission';

/**
 * extensions: apiextensions.k8s.io/v1 CustomResourceDefinitions and, through the CRD controller, every custom
 * resource they define, on the same generic API server as core-api.
 */
@Module({})
export class ExtensionsModule {
  static forRoot(config: ServerConfig): DynamicModule {
    return {
      module: ExtensionsModule,
      imports: [
        ApiServerModule.forRoot({
          config,
          providers: [
            TerminatingCustomResources,
            { provide: NamespaceLifecycleAdmission, useFactory: (storage: Storage) => new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), inject: [Storage] },
          ],
          resources: [customResourceDefinitionsResource],
          admission: {
            inject: [NamespaceLifecycleAdmission, TerminatingCustomResources, Storage],
            // Custom resources count toward `count/<plural>.<group>` quotas; ResourceQuota runs last.
            useFactory: (namespaces: NamespaceLifecycleAdmission, terminating: TerminatingCustomResources, storage: Storage) => [namespaces, terminating, ResourceQuotaAdmission.forStorage(storage)],
          },
        }),
      ],
      providers: [CustomResourceDefinitionController],
    };
  }
}
