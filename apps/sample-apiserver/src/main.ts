import { runAggregatedServer } from '@kube/apiserver';
import { SampleApiServerModule, WARDLE_API_SERVICE } from './sample-apiserver.module';

runAggregatedServer({
  component: 'sample-apiserver',
  defaultPort: 6446,
  apiService: WARDLE_API_SERVICE,
  module: (options) => SampleApiServerModule.forRoot({ ...options, storageRoot: process.env.KUBE_STORAGE_ROOT || undefined }),
});
