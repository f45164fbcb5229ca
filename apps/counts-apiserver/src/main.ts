/**
 * counts-apiserver: the computed-API example of docs/aggregated-api-server.md. Besides the KUBE_* variables of
 * every aggregated server it needs KUBE_REGISTER_URL, KUBE_REGISTER_CERT_FILE, KUBE_REGISTER_KEY_FILE and
 * KUBE_REGISTER_CA_FILE: it registers through the front door and reads the core API there with that identity.
 */
import { registrationTargetFromEnv, runAggregatedServer } from '@kube/apiserver';
import { API_SERVICE, CountsApiServerModule } from './counts-apiserver.module';

runAggregatedServer({
  component: 'counts-apiserver',
  defaultPort: 6447,
  apiService: API_SERVICE,
  module: (options) => {
    const coreApi = options.registration?.target ?? registrationTargetFromEnv(process.env);
    if (!coreApi) throw new Error('counts-apiserver reads the core API through the front door: set KUBE_REGISTER_URL, KUBE_REGISTER_CERT_FILE, KUBE_REGISTER_KEY_FILE and KUBE_REGISTER_CA_FILE');
    return CountsApiServerModule.forRoot({ ...options, coreApi });
  },
});
