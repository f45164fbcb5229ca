/** core/v1 PodSpec and containers: the fields the pod and pod-template strategies read; everything else is kept as given. */
import { listOf, type StringMap } from './validation.helpers';

export interface ContainerPort {
  name?: string;
  containerPort?: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

export interface Container {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  ports?: ContainerPort[];
  restartPolicy?: string;
  resources?: { limits?: Record<string, string | number>; requests?: Record<string, string | number> };
  lifecycle?: unknown;
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  startupProbe?: unknown;
  [field: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  restartPolicy?: string;
  dnsPolicy?: string;
  terminationGracePeriodSeconds?: number | null;
  activeDeadlineSeconds?: number | null;
  schedulerName?: string;
  serviceAccountName?: string;
  serviceAccount?: string;
  nodeName?: string;
  nodeSelector?: StringMap;
  hostname?: string;
  subdomain?: string;
  hostNetwork?: boolean;
  securityContext?: Record<string, unknown>;
  enableServiceLinks?: boolean;
  tolerations?: Toleration[];
  readinessGates?: { conditionType?: string }[];
  schedulingGates?: { name?: string }[];
  [field: string]: unknown;
}

/** core/v1 PodTemplateSpec, as the workload kinds embed it. */
export interface PodTemplateSpec {
  metadata?: { labels?: StringMap; annotations?: StringMap; [field: string]: unknown };
  spec?: PodSpec;
}

export const allContainers = (spec: PodSpec): Container[] => [...listOf(spec.initContainers), ...listOf(spec.containers)];
