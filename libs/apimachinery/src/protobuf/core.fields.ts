/**
 * Field tables for core/v1 messages (field numbers from k8s.io/api core/v1/generated.proto), declared
 * bottom-up so every table exists before a parent refers to it. Hand-written and deliberately partial:
 * the common fields of what typed clients (kubectl create/run, controllers) send; field-tables.spec.ts checks
 * every entry against kube's generated.proto kept in api/proto.
 *
 * Convention: plain scalars are Go omitempty values (zero → dropped); KEEP marks pointers and fields without
 * omitempty, whose zero values are meaningful.
 */
import {
  bool,
  inline,
  int32,
  int64,
  int64List,
  intOrString,
  KEEP,
  map,
  microTime,
  msg,
  msgList,
  quantity,
  str,
  strList,
  time,
  type MessageSpec,
} from './field.schema';
import { Condition, LabelSelector, ObjectMeta } from './meta.fields';

// ---- references and selectors ----

export const LocalObjectReference: MessageSpec = { 1: str('name') };

export const ObjectReference: MessageSpec = {
  1: str('kind'),
  2: str('namespace'),
  3: str('name'),
  4: str('uid'),
  5: str('apiVersion'),
  6: str('resourceVersion'),
  7: str('fieldPath'),
};

export const ObjectFieldSelector: MessageSpec = { 1: str('apiVersion'), 2: str('fieldPath', KEEP) };

export const ResourceFieldSelector: MessageSpec = { 1: str('containerName'), 2: str('resource', KEEP), 3: quantity('divisor') };

export const ConfigMapKeySelector: MessageSpec = {
  1: inline('localObjectReference', LocalObjectReference),
  2: str('key', KEEP),
  3: bool('optional', KEEP),
};

export const SecretKeySelector: MessageSpec = ConfigMapKeySelector;

// ---- container ----

export const ContainerPort: MessageSpec = {
  1: str('name'),
  2: int32('hostPort'),
  3: int32('containerPort', KEEP),
  4: str('protocol'),
  5: str('hostIP'),
};

export const EnvVarSource: MessageSpec = {
  1: msg('fieldRef', ObjectFieldSelector),
  2: msg('resourceFieldRef', ResourceFieldSelector),
  3: msg('configMapKeyRef', ConfigMapKeySelector),
  4: msg('secretKeyRef', SecretKeySelector),
};

export const EnvVar: MessageSpec = { 1: str('name', KEEP), 2: str('value'), 3: msg('valueFrom', EnvVarSource) };

/** ConfigMapEnvSource and SecretEnvSource share one shape. */
export const EnvSourceReference: MessageSpec = { 1: inline('localObjectReference', LocalObjectReference), 2: bool('optional', KEEP) };

export const EnvFromSource: MessageSpec = {
  1: str('prefix'),
  2: msg('configMapRef', EnvSourceReference),
  3: msg('secretRef', EnvSourceReference),
};

export const ResourceClaim: MessageSpec = { 1: str('name', KEEP), 2: str('request') };

export const ResourceRequirements: MessageSpec = {
  1: map('limits', 'quantity'),
  2: map('requests', 'quantity'),
  3: msgList('claims', ResourceClaim),
};

export const ContainerResizePolicy: MessageSpec = { 1: str('resourceName', KEEP), 2: str('restartPolicy', KEEP) };

export const VolumeMount: MessageSpec = {
  1: str('name', KEEP),
  2: bool('readOnly'),
  7: str('recursiveReadOnly', KEEP),
  3: str('mountPath', KEEP),
  4: str('subPath'),
  5: str('mountPropagation', KEEP),
  6: str('subPathExpr'),
};

export const VolumeDevice: MessageSpec = { 1: str('name', KEEP), 2: str('devicePath', KEEP) };

export const ExecAction: MessageSpec = { 1: strList('command') };

export const HTTPHeader: MessageSpec = { 1: str('name', KEEP), 2: str('value', KEEP) };

export const HTTPGetAction: MessageSpec = {
  1: str('path'),
  2: intOrString('port', KEEP),
  3: str('host'),
  4: str('scheme'),
  5: msgList('httpHeaders', HTTPHeader),
};

export const TCPSocketAction: MessageSpec = { 1: intOrString('port', KEEP), 2: str('host') };

export const GRPCAction: MessageSpec = { 1: int32('port', KEEP), 2: str('service', KEEP) };

export const SleepAction: MessageSpec = { 1: int64('seconds', KEEP) };

export const ProbeHandler: MessageSpec = {
  1: msg('exec', ExecAction),
  2: msg('httpGet', HTTPGetAction),
  3: msg('tcpSocket', TCPSocketAction),
  4: msg('grpc', GRPCAction),
};

export const Probe: MessageSpec = {
  1: inline('handler', ProbeHandler),
  2: int32('initialDelaySeconds'),
  3: int32('timeoutSeconds'),
  4: int32('periodSeconds'),
  5: int32('successThreshold'),
  6: int32('failureThreshold'),
  7: int64('terminationGracePeriodSeconds', KEEP),
};

export const LifecycleHandler: MessageSpec = {
  1: msg('exec', ExecAction),
  2: msg('httpGet', HTTPGetAction),
  3: msg('tcpSocket', TCPSocketAction),
  4: msg('sleep', SleepAction),
};

export const Lifecycle: MessageSpec = {
  1: msg('postStart', LifecycleHandler),
  2: msg('preStop', LifecycleHandler),
  3: str('stopSignal', KEEP),
};

export const Capabilities: MessageSpec = { 1: strList('add'), 2: strList('drop') };

export const SELinuxOptions: MessageSpec = { 1: str('user'), 2: str('role'), 3: str('type'), 4: str('level') };

export const WindowsSecurityContextOptions: MessageSpec = {
  1: str('gmsaCredentialSpecName', KEEP),
  2: str('gmsaCredentialSpec', KEEP),
  3: str('runAsUserName', KEEP),
  4: bool('hostProcess', KEEP),
};

/** SeccompProfile and AppArmorProfile share one shape. */
export const SecurityProfile: MessageSpec = { 1: str('type', KEEP), 2: str('localhostProfile', KEEP) };

export const SecurityContext: MessageSpec = {
  1: msg('capabilities', Capabilities),
  2: bool('privileged', KEEP),
  3: msg('seLinuxOptions', SELinuxOptions),
  10: msg('windowsOptions', WindowsSecurityContextOptions),
  4: int64('runAsUser', KEEP),
  8: int64('runAsGroup', KEEP),
  5: bool('runAsNonRoot', KEEP),
  6: bool('readOnlyRootFilesystem', KEEP),
  7: bool('allowPrivilegeEscalation', KEEP),
  9: str('procMount', KEEP),
  11: msg('seccompProfile', SecurityProfile),
  12: msg('appArmorProfile', SecurityProfile),
};

export const Container: MessageSpec = {
  1: str('name', KEEP),
  2: str('image'),
  3: strList('command'),
  4: strList('args'),
  5: str('workingDir'),
  6: msgList('ports', ContainerPort),
  19: msgList('envFrom', EnvFromSource),
  7: msgList('env', EnvVar),
  8: msg('resources', ResourceRequirements),
  23: msgList('resizePolicy', ContainerResizePolicy),
  24: str('restartPolicy', KEEP),
  9: msgList('volumeMounts', VolumeMount),
  21: msgList('volumeDevices', VolumeDevice),
  10: msg('livenessProbe', Probe),
  11: msg('readinessProbe', Probe),
  22: msg('startupProbe', Probe),
  12: msg('lifecycle', Lifecycle),
  13: str('terminationMessagePath'),
  20: str('terminationMessagePolicy'),
  14: str('imagePullPolicy'),
  15: msg('securityContext', SecurityContext),
  16: bool('stdin'),
  17: bool('stdinOnce'),
  18: bool('tty'),
};

/** EphemeralContainerCommon has Container's field numbers and is inlined. */
export const EphemeralContainer: MessageSpec = {
  1: inline('ephemeralContainerCommon', Container),
  2: str('targetContainerName'),
};

// ---- volumes ----

export const KeyToPath: MessageSpec = { 1: str('key', KEEP), 2: str('path', KEEP), 3: int32('mode', KEEP) };

export const HostPathVolumeSource: MessageSpec = { 1: str('path', KEEP), 2: str('type', KEEP) };

export const EmptyDirVolumeSource: MessageSpec = { 1: str('medium'), 2: quantity('sizeLimit') };

export const SecretVolumeSource: MessageSpec = {
  1: str('secretName'),
  2: msgList('items', KeyToPath),
  3: int32('defaultMode', KEEP),
  4: bool('optional', KEEP),
};

export const PersistentVolumeClaimVolumeSource: MessageSpec = { 1: str('claimName', KEEP), 2: bool('readOnly') };

export const ConfigMapVolumeSource: MessageSpec = {
  1: inline('localObjectReference', LocalObjectReference),
  2: msgList('items', KeyToPath),
  3: int32('defaultMode', KEEP),
  4: bool('optional', KEEP),
};

export const DownwardAPIVolumeFile: MessageSpec = {
  1: str('path', KEEP),
  2: msg('fieldRef', ObjectFieldSelector),
  3: msg('resourceFieldRef', ResourceFieldSelector),
  4: int32('mode', KEEP),
};

export const DownwardAPIVolumeSource: MessageSpec = { 1: msgList('items', DownwardAPIVolumeFile), 2: int32('defaultMode', KEEP) };

/** VolumeSource is inlined into Volume; only the common sources are mapped. */
export const VolumeSource: MessageSpec = {
  1: msg('hostPath', HostPathVolumeSource),
  2: msg('emptyDir', EmptyDirVolumeSource),
  6: msg('secret', SecretVolumeSource),
  10: msg('persistentVolumeClaim', PersistentVolumeClaimVolumeSource),
  16: msg('downwardAPI', DownwardAPIVolumeSource),
  19: msg('configMap', ConfigMapVolumeSource),
};

export const Volume: MessageSpec = { 1: str('name', KEEP), 2: inline('volumeSource', VolumeSource) };

// ---- scheduling ----

export const NodeSelectorRequirement: MessageSpec = { 1: str('key', KEEP), 2: str('operator', KEEP), 3: strList('values') };

export const NodeSelectorTerm: MessageSpec = {
  1: msgList('matchExpressions', NodeSelectorRequirement),
  2: msgList('matchFields', NodeSelectorRequirement),
};

export const NodeSelector: MessageSpec = { 1: msgList('nodeSelectorTerms', NodeSelectorTerm) };

export const PreferredSchedulingTerm: MessageSpec = { 1: int32('weight', KEEP), 2: msg('preference', NodeSelectorTerm) };

export const NodeAffinity: MessageSpec = {
  1: msg('requiredDuringSchedulingIgnoredDuringExecution', NodeSelector),
  2: msgList('preferredDuringSchedulingIgnoredDuringExecution', PreferredSchedulingTerm),
};

export const PodAffinityTerm: MessageSpec = {
  1: msg('labelSelector', LabelSelector),
  2: strList('namespaces'),
  3: str('topologyKey', KEEP),
  4: msg('namespaceSelector', LabelSelector),
  5: strList('matchLabelKeys'),
  6: strList('mismatchLabelKeys'),
};

export const WeightedPodAffinityTerm: MessageSpec = { 1: int32('weight', KEEP), 2: msg('podAffinityTerm', PodAffinityTerm) };

/** PodAffinity and PodAntiAffinity share one shape. */
export const PodAffinity: MessageSpec = {
  1: msgList('requiredDuringSchedulingIgnoredDuringExecution', PodAffinityTerm),
  2: msgList('preferredDuringSchedulingIgnoredDuringExecution', WeightedPodAffinityTerm),
};

export const Affinity: MessageSpec = {
  1: msg('nodeAffinity', NodeAffinity),
  2: msg('podAffinity', PodAffinity),
  3: msg('podAntiAffinity', PodAffinity),
};

export const Toleration: MessageSpec = {
  1: str('key'),
  2: str('operator'),
  3: str('value'),
  4: str('effect'),
  5: int64('tolerationSeconds', KEEP),
};

export const TopologySpreadConstraint: MessageSpec = {
  1: int32('maxSkew', KEEP),
  2: str('topologyKey', KEEP),
  3: str('whenUnsatisfiable', KEEP),
  4: msg('labelSelector', LabelSelector),
  5: int32('minDomains', KEEP),
  6: str('nodeAffinityPolicy', KEEP),
  7: str('nodeTaintsPolicy', KEEP),
  8: strList('matchLabelKeys'),
};

// ---- pod ----

export const Sysctl: MessageSpec = { 1: str('name', KEEP), 2: str('value', KEEP) };

export const PodSecurityContext: MessageSpec = {
  1: msg('seLinuxOptions', SELinuxOptions),
  8: msg('windowsOptions', WindowsSecurityContextOptions),
  2: int64('runAsUser', KEEP),
  6: int64('runAsGroup', KEEP),
  3: bool('runAsNonRoot', KEEP),
  4: int64List('supplementalGroups'),
  12: str('supplementalGroupsPolicy', KEEP),
  5: int64('fsGroup', KEEP),
  7: msgList('sysctls', Sysctl),
  9: str('fsGroupChangePolicy', KEEP),
  10: msg('seccompProfile', SecurityProfile),
  11: msg('appArmorProfile', SecurityProfile),
  13: str('seLinuxChangePolicy', KEEP),
};

export const HostAlias: MessageSpec = { 1: str('ip', KEEP), 2: strList('hostnames') };

export const PodDNSConfigOption: MessageSpec = { 1: str('name'), 2: str('value', KEEP) };

export const PodDNSConfig: MessageSpec = {
  1: strList('nameservers'),
  2: strList('searches'),
  3: msgList('options', PodDNSConfigOption),
};

/** PodReadinessGate {conditionType}; PodOS and PodSchedulingGate are {name}. */
export const PodReadinessGate: MessageSpec = { 1: str('conditionType', KEEP) };
export const NamedItem: MessageSpec = { 1: str('name', KEEP) };

export const PodSpec: MessageSpec = {
  1: msgList('volumes', Volume),
  20: msgList('initContainers', Container),
  2: msgList('containers', Container),
  34: msgList('ephemeralContainers', EphemeralContainer),
  3: str('restartPolicy'),
  4: int64('terminationGracePeriodSeconds', KEEP),
  5: int64('activeDeadlineSeconds', KEEP),
  6: str('dnsPolicy'),
  7: map('nodeSelector'),
  8: str('serviceAccountName'),
  9: str('serviceAccount'),
  21: bool('automountServiceAccountToken', KEEP),
  10: str('nodeName'),
  11: bool('hostNetwork'),
  12: bool('hostPID'),
  13: bool('hostIPC'),
  27: bool('shareProcessNamespace', KEEP),
  14: msg('securityContext', PodSecurityContext),
  15: msgList('imagePullSecrets', LocalObjectReference),
  16: str('hostname'),
  17: str('subdomain'),
  18: msg('affinity', Affinity),
  19: str('schedulerName'),
  22: msgList('tolerations', Toleration),
  23: msgList('hostAliases', HostAlias),
  24: str('priorityClassName'),
  25: int32('priority', KEEP),
  26: msg('dnsConfig', PodDNSConfig),
  28: msgList('readinessGates', PodReadinessGate),
  29: str('runtimeClassName', KEEP),
  30: bool('enableServiceLinks', KEEP),
  31: str('preemptionPolicy', KEEP),
  32: map('overhead', 'quantity'),
  33: msgList('topologySpreadConstraints', TopologySpreadConstraint),
  35: bool('setHostnameAsFQDN', KEEP),
  36: msg('os', NamedItem),
  37: bool('hostUsers', KEEP),
  38: msgList('schedulingGates', NamedItem),
  40: msg('resources', ResourceRequirements),
};

export const PodCondition: MessageSpec = {
  1: str('type', KEEP),
  7: int64('observedGeneration'),
  2: str('status', KEEP),
  3: time('lastProbeTime'),
  4: time('lastTransitionTime'),
  5: str('reason'),
  6: str('message'),
};

export const ContainerStateWaiting: MessageSpec = { 1: str('reason'), 2: str('message') };
export const ContainerStateRunning: MessageSpec = { 1: time('startedAt') };
export const ContainerStateTerminated: MessageSpec = {
  1: int32('exitCode', KEEP),
  2: int32('signal'),
  3: str('reason'),
  4: str('message'),
  5: time('startedAt'),
  6: time('finishedAt'),
  7: str('containerID'),
};

export const ContainerState: MessageSpec = {
  1: msg('waiting', ContainerStateWaiting),
  2: msg('running', ContainerStateRunning),
  3: msg('terminated', ContainerStateTerminated),
};

export const ContainerStatus: MessageSpec = {
  1: str('name', KEEP),
  2: msg('state', ContainerState),
  3: msg('lastState', ContainerState),
  4: bool('ready', KEEP),
  5: int32('restartCount', KEEP),
  6: str('image', KEEP),
  7: str('imageID', KEEP),
  8: str('containerID'),
  9: bool('started', KEEP),
  10: map('allocatedResources', 'quantity'),
  11: msg('resources', ResourceRequirements),
};

/** PodIP and HostIP are {ip}. */
export const IPAddress: MessageSpec = { 1: str('ip', KEEP) };

export const PodStatus: MessageSpec = {
  17: int64('observedGeneration'),
  1: str('phase'),
  2: msgList('conditions', PodCondition),
  3: str('message'),
  4: str('reason'),
  11: str('nominatedNodeName'),
  5: str('hostIP'),
  16: msgList('hostIPs', IPAddress),
  6: str('podIP'),
  12: msgList('podIPs', IPAddress),
  7: time('startTime'),
  10: msgList('initContainerStatuses', ContainerStatus),
  8: msgList('containerStatuses', ContainerStatus),
  9: str('qosClass'),
  13: msgList('ephemeralContainerStatuses', ContainerStatus),
  14: str('resize'),
};

export const Pod: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', PodSpec), 3: msg('status', PodStatus) };

/** What the workload kinds (apps/v1, batch/v1) embed. */
export const PodTemplateSpec: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', PodSpec) };

// ---- service, endpoints ----

export const ServicePort: MessageSpec = {
  1: str('name'),
  2: str('protocol'),
  6: str('appProtocol', KEEP),
  3: int32('port', KEEP),
  4: intOrString('targetPort'),
  5: int32('nodePort'),
};

export const ClientIPConfig: MessageSpec = { 1: int32('timeoutSeconds', KEEP) };

export const SessionAffinityConfig: MessageSpec = { 1: msg('clientIP', ClientIPConfig) };

export const ServiceSpec: MessageSpec = {
  1: msgList('ports', ServicePort),
  2: map('selector'),
  3: str('clusterIP'),
  18: strList('clusterIPs'),
  4: str('type'),
  5: strList('externalIPs'),
  7: str('sessionAffinity'),
  8: str('loadBalancerIP'),
  9: strList('loadBalancerSourceRanges'),
  10: str('externalName'),
  11: str('externalTrafficPolicy'),
  12: int32('healthCheckNodePort'),
  13: bool('publishNotReadyAddresses'),
  14: msg('sessionAffinityConfig', SessionAffinityConfig),
  19: strList('ipFamilies'),
  17: str('ipFamilyPolicy', KEEP),
  20: bool('allocateLoadBalancerNodePorts', KEEP),
  21: str('loadBalancerClass', KEEP),
  22: str('internalTrafficPolicy', KEEP),
  23: str('trafficDistribution', KEEP),
};

export const PortStatus: MessageSpec = { 1: int32('port', KEEP), 2: str('protocol', KEEP), 3: str('error', KEEP) };

export const LoadBalancerIngress: MessageSpec = {
  1: str('ip'),
  2: str('hostname'),
  3: str('ipMode', KEEP),
  4: msgList('ports', PortStatus),
};

export const LoadBalancerStatus: MessageSpec = { 1: msgList('ingress', LoadBalancerIngress) };

export const ServiceStatus: MessageSpec = { 1: msg('loadBalancer', LoadBalancerStatus), 2: msgList('conditions', Condition) };

export const Service: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', ServiceSpec), 3: msg('status', ServiceStatus) };

export const EndpointAddress: MessageSpec = {
  1: str('ip', KEEP),
  3: str('hostname'),
  4: str('nodeName', KEEP),
  2: msg('targetRef', ObjectReference),
};

export const EndpointPort: MessageSpec = { 1: str('name'), 2: int32('port', KEEP), 3: str('protocol'), 4: str('appProtocol', KEEP) };

export const EndpointSubset: MessageSpec = {
  1: msgList('addresses', EndpointAddress),
  2: msgList('notReadyAddresses', EndpointAddress),
  3: msgList('ports', EndpointPort),
};

export const Endpoints: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msgList('subsets', EndpointSubset) };

// ---- config and identity ----

export const ConfigMap: MessageSpec = {
  1: msg('metadata', ObjectMeta),
  4: bool('immutable', KEEP),
  2: map('data'),
  3: map('binaryData', 'bytes'),
};

export const Secret: MessageSpec = {
  1: msg('metadata', ObjectMeta),
  5: bool('immutable', KEEP),
  2: map('data', 'bytes'),
  4: map('stringData'),
  3: str('type'),
};

export const ServiceAccount: MessageSpec = {
  1: msg('metadata', ObjectMeta),
  2: msgList('secrets', ObjectReference),
  3: msgList('imagePullSecrets', LocalObjectReference),
  4: bool('automountServiceAccountToken', KEEP),
};

// ---- namespace ----

export const NamespaceCondition: MessageSpec = {
  1: str('type', KEEP),
  2: str('status', KEEP),
  4: time('lastTransitionTime'),
  5: str('reason'),
  6: str('message'),
};

export const NamespaceSpec: MessageSpec = { 1: strList('finalizers') };

export const NamespaceStatus: MessageSpec = { 1: str('phase'), 2: msgList('conditions', NamespaceCondition) };

export const Namespace: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', NamespaceSpec), 3: msg('status', NamespaceStatus) };

// ---- event ----

export const EventSource: MessageSpec = { 1: str('component'), 2: str('host') };

export const EventSeries: MessageSpec = { 1: int32('count'), 2: microTime('lastObservedTime') };

export const Event: MessageSpec = {
  1: msg('metadata', ObjectMeta),
  2: msg('involvedObject', ObjectReference),
  3: str('reason'),
  4: str('message'),
  5: msg('source', EventSource),
  6: time('firstTimestamp'),
  7: time('lastTimestamp'),
  8: int32('count'),
  9: str('type'),
  10: microTime('eventTime'),
  11: msg('series', EventSeries),
  12: str('action'),
  13: msg('related', ObjectReference),
  14: str('reportingComponent', KEEP),
  15: str('reportingInstance', KEEP),
};

// ---- quota and limits ----

export const ScopedResourceSelectorRequirement: MessageSpec = { 1: str('scopeName'), 2: str('operator'), 3: strList('values') };

export const ScopeSelector: MessageSpec = { 1: msgList('matchExpressions', ScopedResourceSelectorRequirement) };

export const ResourceQuotaSpec: MessageSpec = { 1: map('hard', 'quantity'), 2: strList('scopes'), 3: msg('scopeSelector', ScopeSelector) };

export const ResourceQuotaStatus: MessageSpec = { 1: map('hard', 'quantity'), 2: map('used', 'quantity') };

export const ResourceQuota: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', ResourceQuotaSpec), 3: msg('status', ResourceQuotaStatus) };

export const LimitRangeItem: MessageSpec = {
  1: str('type'),
  2: map('max', 'quantity'),
  3: map('min', 'quantity'),
  4: map('default', 'quantity'),
  5: map('defaultRequest', 'quantity'),
  6: map('maxLimitRequestRatio', 'quantity'),
};

export const LimitRangeSpec: MessageSpec = { 1: msgList('limits', LimitRangeItem) };

export const LimitRange: MessageSpec = { 1: msg('metadata', ObjectMeta), 2: msg('spec', LimitRangeSpec) };
