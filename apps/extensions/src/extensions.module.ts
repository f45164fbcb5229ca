import { Module, type DynamicModule } from '@nestjs/common';
import { ApiServerModule, NamespaceLifecycleAdmission, type ServerConfig } from '@kube/apiserver';
import { customResourceDefinitionsResource } from './crd/customresourcedefinitions.resource';
import { CustomResourceDefinitionController } from './controllers/crd.controller';
import { TerminatingCustomResources } from './controllers/terminating.admission';

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
          resources: [customResourceDefinitionsResource],
          admission: (storage) => [new NamespaceLifecycleAdmission(storage.resource({ group: '', resource: 'namespaces' }, 'namespaces')), terminating],
        }),
      ],
      providers: [{ provide: TerminatingCustomResources, useValue: terminating }, CustomResourceDefinitionController],
    };
  }
}
