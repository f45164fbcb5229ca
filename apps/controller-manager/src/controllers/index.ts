import type { ControllerFactory } from '../controller.context';
import { DaemonSetController } from './apps/daemonset.controller';
import { DeploymentController } from './apps/deployment.controller';
import { ReplicaSetController } from './apps/replicaset.controller';
import { StatefulSetController } from './apps/statefulset.controller';
import { HorizontalPodAutoscalerController } from './autoscaling/horizontal-pod-autoscaler.controller';
import { CronJobController } from './batch/cronjob.controller';
import { JobController } from './batch/job.controller';
import { TtlAfterFinishedController } from './batch/ttl-after-finished.controller';
import { CertificateSigningController } from './certificate-signing.controller';
import { ClusterRoleAggregationController } from './clusterrole-aggregation.controller';
import { PodGcController } from './core/podgc.controller';
import { EndpointsController } from './discovery/endpoints.controller';
import { EndpointSliceMirroringController } from './discovery/endpointslice-mirroring.controller';
import { EndpointSliceController } from './discovery/endpointslice.controller';
import { GarbageCollector } from './garbage-collector/garbage-collector.controller';
import { NamespaceController } from './namespace.controller';
import { DisruptionController } from './policy/disruption.controller';
import { ResourceQuotaController } from './resourcequota.controller';
import { rootCaPublisher } from './root-ca-publisher.controller';
import { serviceAccountsController } from './serviceaccounts.controller';

/** Every controller by its kube-controller-manager name (--controllers). */
export const CONTROLLERS: ReadonlyMap<string, ControllerFactory> = new Map<string, ControllerFactory>([
  ['garbage-collector-controller', (ctx) => new GarbageCollector(ctx)],
  ['namespace-controller', (ctx) => new NamespaceController(ctx)],
  ['serviceaccount-controller', serviceAccountsController],
  ['root-ca-certificate-publisher-controller', rootCaPublisher],
  ['clusterrole-aggregation-controller', (ctx) => new ClusterRoleAggregationController(ctx)],
  ['resourcequota-controller', (ctx) => new ResourceQuotaController(ctx)],
  ['replicaset-controller', (ctx) => ReplicaSetController.replicaSets(ctx)],
  ['replicationcontroller-controller', (ctx) => ReplicaSetController.replicationControllers(ctx)],
  ['deployment-controller', (ctx) => new DeploymentController(ctx)],
  ['statefulset-controller', (ctx) => new StatefulSetController(ctx)],
  ['daemonset-controller', (ctx) => new DaemonSetController(ctx)],
  ['job-controller', (ctx) => new JobController(ctx)],
  ['cronjob-controller', (ctx) => new CronJobController(ctx)],
  ['endpointslice-controller', (ctx) => new EndpointSliceController(ctx)],
  ['endpoints-controller', (ctx) => new EndpointsController(ctx)],
  ['endpointslice-mirroring-controller', (ctx) => new EndpointSliceMirroringController(ctx)],
  ['disruption-controller', (ctx) => new DisruptionController(ctx)],
  ['pod-garbage-collector-controller', (ctx) => new PodGcController(ctx)],
  ['horizontal-pod-autoscaler-controller', (ctx) => new HorizontalPodAutoscalerController(ctx)],
  ['ttl-after-finished-controller', (ctx) => new TtlAfterFinishedController(ctx)],
  ['certificatesigningrequest-signing-controller', (ctx) => (ctx.clusterSigningCa ? new CertificateSigningController(ctx, ctx.clusterSigningCa) : undefined)],
]);

/** The event source (`From` in kubectl describe) of each controller that records events, as kube names its recorder. */
export const EVENT_SOURCES: ReadonlyMap<string, string> = new Map([
  ['garbage-collector-controller', 'garbage-collector-controller'],
  ['replicaset-controller', 'replicaset-controller'],
  ['replicationcontroller-controller', 'replication-controller'],
  ['deployment-controller', 'deployment-controller'],
  ['statefulset-controller', 'statefulset-controller'],
  ['daemonset-controller', 'daemonset-controller'],
  ['job-controller', 'job-controller'],
  ['cronjob-controller', 'cronjob-controller'],
  ['endpointslice-controller', 'endpoint-slice-controller'],
  ['endpoints-controller', 'endpoint-controller'],
  ['endpointslice-mirroring-controller', 'endpoint-slice-mirroring-controller'],
  ['disruption-controller', 'controllermanager'],
  ['horizontal-pod-autoscaler-controller', 'horizontal-pod-autoscaler'],
]);

export { GarbageCollector } from './garbage-collector/garbage-collector.controller';
