/**
 * Field tables for apps/v1 (field numbers from k8s.io/api apps/v1/generated.proto): the workload kinds typed
 * clients create (kubectl 1.32+ `create deployment` sends protobuf). Status and StatefulSet are not decoded.
 */
import { bool, int32, intOrString, KEEP, msg, str, type MessageSpec } from './field.schema';
import { PodTemplateSpec } from './core.fields';
import { LabelSelector, ObjectMeta } from './meta.fields';

/** maxUnavailable and maxSurge are pointers in Go: 0 is a real value. */
export const RollingUpdateDeployment: MessageSpec = { 1: intOrString('maxUnavailable', KEEP), 2: intOrString('maxSurge', KEEP) };

export const DeploymentStrategy: MessageSpec = { 1: str('type'), 2: msg('rollingUpdate', RollingUpdateDeployment) };

export const DeploymentSpec: MessageSpec = {
  1: int32('replicas', KEEP),
  2: msg('selector', LabelSelector),
  3: msg('template', PodTemplateSpec),
  4: msg('strategy', DeploymentStrategy),
  5: int32('minReadySeconds'),
  6: int32('revisionHistoryLimit', KEEP),
  7: bool('paused'),
  9: int32('progressDeadlineSeconds', KEEP),
};

export const Deployment: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', DeploymentSpec) };

export const ReplicaSetSpec: MessageSpec = { 1: int32('replicas', KEEP), 2: msg('selector', LabelSelector), 3: msg('template', PodTemplateSpec), 4: int32('minReadySeconds') };

export const ReplicaSet: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', ReplicaSetSpec) };

export const RollingUpdateDaemonSet: MessageSpec = RollingUpdateDeployment;

export const DaemonSetUpdateStrategy: MessageSpec = { 1: str('type'), 2: msg('rollingUpdate', RollingUpdateDaemonSet) };

export const DaemonSetSpec: MessageSpec = {
  1: msg('selector', LabelSelector),
  2: msg('template', PodTemplateSpec),
  3: msg('updateStrategy', DaemonSetUpdateStrategy),
  4: int32('minReadySeconds'),
  6: int32('revisionHistoryLimit', KEEP),
};

export const DaemonSet: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', DaemonSetSpec) };
