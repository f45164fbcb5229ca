/**
 * The e2e test kit (`@test/support`): a whole stack in the test process (etcd, core-api, extensions, the
 * aggregator), aggregated servers booted against it, kubectl sessions. Used by test/ and by the e2e tests the
 * new-apiserver scaffold generates under apps/<name>/test/.
 */
export { adminAccess, startStack, startCoreApi, type StackHarness } from './core-api.harness';
export { adminTarget, bootAggregatedServer, type AggregatedServerBoot } from './aggregated-server.boot';
export { kubectlSession, type KubectlSession } from './kubectl.session';
export { until } from './until';
export { expectStatus, type StatusAnswer } from './expect-status';
export { hasMetric, metricTotal } from './metrics.exposition';
export { tokenKubeconfig, userKubeconfig } from './user.kubeconfig';
export { type SecuredNats, startSecuredNats } from './secured-nats';
export { type SecuredEtcd, startSecuredEtcd } from './secured-etcd';
export { startControllerManager, type ControllerManagerHandle } from './controller-manager.boot';
export { NetnsFault, type NetnsLink, netnsUnavailable } from './netns.fault';
export { serverProcessEnv } from './server-process.env';
export { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp.receiver';
export { startTcpRelay, type TcpRelay } from './tcp.relay';
