export { type EtcdOptions, type EtcdProcess, startEtcd } from './etcd.process';
export { onProcessExit, runExitCleanups, type ExitCleanup } from './exit-cleanup.registry';
export { EXECUTABLE_DIRS, findExecutable } from './executable.locator';
export { assertPortsFree, freePort, freePorts, portAnswers } from './free-port';
export { type KubectlResult, type KubectlRunOptions, kubectlPath, runKubectl } from './kubectl.runner';
export { type NatsOptions, type NatsProcess, startNats } from './nats.process';
export { httpStatus } from './readiness.probe';
export { type ProcessExit, SupervisedProcess, type SupervisedProcessOptions } from './supervised.process';
export { tempDir } from './temp-dir';
