{{/*
Helpers shared by every template. Component helpers take a dict:
  root      the chart's top-level context ($)
  component the component name as it appears in labels and resource names: aggregator, core-api,
            extensions, sample-apiserver, etcd, nats
  values    (where needed) that component's values block, e.g. .Values.coreApi
*/}}

{{- define "kube-ts.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "kube-ts.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "kube-ts.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* "<fullname>-<component>", the name of the component's Deployment/StatefulSet, Service, PDB, … */}}
{{- define "kube-ts.componentName" -}}
{{- printf "%s-%s" (include "kube-ts.fullname" .root) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The recommended labels (app.kubernetes.io/*) plus helm.sh/chart. */}}
{{- define "kube-ts.labels" -}}
helm.sh/chart: {{ include "kube-ts.chart" .root }}
{{ include "kube-ts.selectorLabels" . }}
app.kubernetes.io/part-of: kube-ts
app.kubernetes.io/version: {{ .root.Values.image.tag | default .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The immutable subset used in selectors. */}}
{{- define "kube-ts.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kube-ts.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "kube-ts.serviceAccountName" -}}
{{- if .values.serviceAccount.create }}
{{- default (include "kube-ts.componentName" .) .values.serviceAccount.name }}
{{- else }}
{{- default "default" .values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "kube-ts.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{/* In-cluster DNS names of a component's Service, for certificates and URLs. */}}
{{- define "kube-ts.serviceHost" -}}
{{- printf "%s.%s.svc" (include "kube-ts.componentName" .) .root.Release.Namespace }}
{{- end }}

{{/*
The SANs of a component's serving certificate as JSON {"dns": [...], "ips": [...]} (use with fromJson):
its Service names, localhost and 127.0.0.1 (for clients in the pod); the aggregator adds
pki.extraAggregatorSANs, the sample-apiserver the name our aggregator verifies it by (APIService
kube-system/wardle-server → wardle-server.kube-system.svc), each aggregatedApiservers entry <name>.kube-system.svc.
*/}}
{{- define "kube-ts.sans" -}}
{{- $svc := include "kube-ts.componentName" . }}
{{- $ns := .root.Release.Namespace }}
{{- $dns := list $svc (printf "%s.%s" $svc $ns) (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.%s" $svc $ns .root.Values.clusterDomain) "localhost" }}
{{- $ips := list "127.0.0.1" }}
{{- if eq .component "aggregator" }}
{{- range .root.Values.pki.extraAggregatorSANs }}
{{- if or (regexMatch "^[0-9.]+$" .) (contains ":" .) }}
{{- $ips = append $ips . }}
{{- else }}
{{- $dns = append $dns . }}
{{- end }}
{{- end }}
{{- end }}
{{- if eq .component "sample-apiserver" }}
{{- $dns = append $dns "wardle-server.kube-system.svc" }}
{{- end }}
{{- $component := .component }}
{{- range .root.Values.aggregatedApiservers | default list }}
{{- if eq .name $component }}
{{- $dns = append $dns (printf "%s.kube-system.svc" .name) }}
{{- end }}
{{- end }}
{{- dict "dns" $dns "ips" $ips | toJson }}
{{- end }}

{{/* etcd client URLs: every bundled member over TLS (the client fails over between them), or the external list. */}}
{{- define "kube-ts.etcdEndpoints" -}}
{{- if eq .Values.etcd.mode "bundled" }}
{{- $name := include "kube-ts.componentName" (dict "root" . "component" "etcd") }}
{{- $urls := list }}
{{- range $i := until (int .Values.etcd.bundled.replicas) }}
{{- $urls = append $urls (printf "https://%s-%d.%s-headless.%s.svc.%s:2379" $name $i $name $.Release.Namespace $.Values.clusterDomain) }}
{{- end }}
{{- join "," $urls }}
{{- else }}
{{- join "," .Values.etcd.external.endpoints }}
{{- end }}
{{- end }}

{{/*
The API servers with an etcd user of their own (scripts/etcd-access.ts): the control plane, the sample-apiserver
when enabled, each aggregatedApiservers entry. JSON {"<component>": "<its API group, or '' for the control plane>"}.
*/}}
{{- define "kube-ts.etcdClients" -}}
{{- $clients := dict "core-api" "" "extensions" "" "aggregator" "" }}
{{- if .Values.sampleApiserver.enabled }}
{{- $_ := set $clients "sample-apiserver" "wardle.example.com" }}
{{- end }}
{{- range .Values.aggregatedApiservers | default list }}
{{- $_ := set $clients .name .group }}
{{- end }}
{{- $clients | toJson }}
{{- end }}

{{/*
The Secret (tls.crt, tls.key, ca.crt) a component reaches etcd with, or "": bundled etcd, the chart's
<fullname>-etcd-client-<component> (CN kube-ts:<component>, its etcd user); external etcd, etcd.external.clientSecrets.
*/}}
{{- define "kube-ts.etcdClientSecret" -}}
{{- if eq .root.Values.etcd.mode "bundled" }}
{{- if hasKey (include "kube-ts.etcdClients" .root | fromJson) .component }}{{ include "kube-ts.fullname" .root }}-etcd-client-{{ .component }}{{ end }}
{{- else }}
{{- index (.root.Values.etcd.external.clientSecrets | default dict) .component | default "" }}
{{- end }}
{{- end }}

{{/* The DNS names of the bundled etcd's serving certificate: its Services and each member's address. */}}
{{- define "kube-ts.etcdDnsNames" -}}
{{- $name := include "kube-ts.componentName" (dict "root" . "component" "etcd") }}
{{- $ns := .Release.Namespace }}
{{- list $name (printf "%s.%s" $name $ns) (printf "%s.%s.svc" $name $ns) (printf "%s.%s.svc.%s" $name $ns .Values.clusterDomain) (printf "*.%s-headless.%s.svc.%s" $name $ns .Values.clusterDomain) "localhost" | toJson }}
{{- end }}

{{- define "kube-ts.natsUrl" -}}
{{- if eq .Values.nats.mode "bundled" }}
{{- printf "nats://%s.%s.svc.%s:4222" (include "kube-ts.componentName" (dict "root" . "component" "nats")) .Release.Namespace .Values.clusterDomain }}
{{- else }}
{{- .Values.nats.external.url }}
{{- end }}
{{- end }}

{{/*
The control plane's NATS identities (libs/registration CONTROL_PLANE_REGISTRATION_IDENTITIES): each gets a
client certificate of the NATS CA (CN=<name>, Secret <fullname>-nats-client-<name>), which nats-server maps to
a user with its registration permissions (docs/registration.md, threat model). JSON {"<name>": "<role>"}.
*/}}
{{- define "kube-ts.natsIdentities" -}}
{{- dict "core-api" "announcer" "extensions" "announcer" "aggregator" "registry" | toJson }}
{{- end }}

{{/* The DNS names of nats-server's certificate: its Services, and each server's route address. */}}
{{- define "kube-ts.natsDnsNames" -}}
{{- $name := include "kube-ts.componentName" (dict "root" . "component" "nats") }}
{{- $ns := .Release.Namespace }}
{{- list $name (printf "%s.%s" $name $ns) (printf "%s.%s.svc" $name $ns) (printf "%s.%s.svc.%s" $name $ns .Values.clusterDomain) (printf "*.%s-headless.%s.svc.%s" $name $ns .Values.clusterDomain) "localhost" | toJson }}
{{- end }}

{{/*
nats-server's configuration (JSON, as libs/registration natsServerConfig writes it): TLS with client
certificates of the NATS CA mapped to users (verify_and_map), each allowed only its registration subjects;
with several servers, routes over TLS whose peer certificate must be of the NATS CA and name a configured
route host (verify_cert_and_check_known_urls): a service's client certificate cannot join as a route.
*/}}
{{- define "kube-ts.natsConfig" -}}
{{- $users := list }}
{{- range $identity, $role := include "kube-ts.natsIdentities" . | fromJson }}
{{- $publish := list (printf "kube.registration.v1.announce.%s" $identity) (printf "kube.registration.v1.withdraw.%s" $identity) }}
{{- $subscribe := list "kube.registration.v1.resync" }}
{{- if eq $role "registry" }}
{{- $publish = list "kube.registration.v1.resync" }}
{{- $subscribe = list "kube.registration.v1.announce.*" "kube.registration.v1.withdraw.*" }}
{{- end }}
{{- $users = append $users (dict "user" (printf "CN=%s" $identity) "permissions" (dict "publish" (dict "allow" $publish) "subscribe" (dict "allow" $subscribe))) }}
{{- end }}
{{- $tls := dict "cert_file" "/etc/nats/tls/tls.crt" "key_file" "/etc/nats/tls/tls.key" "ca_file" "/etc/nats/tls/ca.crt" }}
{{- /* Monitoring on loopback only: nats-server never asks monitoring clients for a certificate. */}}
{{- $config := dict "http" "127.0.0.1:8222" "tls" (merge (dict "verify_and_map" true) $tls) "authorization" (dict "users" $users) }}
{{- $v := .Values.nats.bundled }}
{{- if gt (int $v.replicas) 1 }}
{{- $name := include "kube-ts.componentName" (dict "root" . "component" "nats") }}
{{- $routes := list }}
{{- range $i := until (int $v.replicas) }}
{{- $routes = append $routes (printf "nats://%s-%d.%s-headless.%s.svc.%s:6222" $name $i $name $.Release.Namespace $.Values.clusterDomain) }}
{{- end }}
{{- $_ := set $config "cluster" (dict "name" $name "listen" "0.0.0.0:6222" "routes" $routes "tls" (merge (dict "verify_cert_and_check_known_urls" true) $tls)) }}
{{- end }}
{{- $config | toPrettyJson }}
{{- end }}

{{/* Whether the <fullname>-tokens Secret (static bearer tokens) exists: "true" or "". */}}
{{- define "kube-ts.tokensEnabled" -}}
{{- if or .Values.auth.adminToken.enabled .Values.metrics.serviceMonitor.enabled }}true{{ end }}
{{- end }}

{{/*
The key of the <fullname>-tokens Secret a component mounts as its static token file (component dict), or "".
The admin token (system:masters) only at the front door (tokens.csv); core-api and extensions, which Prometheus
scrapes directly and which cannot review tokens, only the metrics token (metrics-tokens.csv, system:monitoring);
aggregated servers none: they review bearer tokens with the front door (delegated TokenReview).
*/}}
{{- define "kube-ts.tokenFile" -}}
{{- if and (eq .component "aggregator") (include "kube-ts.tokensEnabled" .root) }}tokens.csv
{{- else if and (has .component (list "core-api" "extensions")) .root.Values.metrics.serviceMonitor.enabled }}metrics-tokens.csv
{{- end }}
{{- end }}

{{/*
Environment every API server reads (libs/apiserver serverConfigFromEnv, docs/configuration.md).
Takes the component dict; `values` must have `port`.
*/}}
{{- define "kube-ts.apiserverEnv" -}}
- name: KUBE_ETCD_ENDPOINTS
  value: {{ include "kube-ts.etcdEndpoints" .root | quote }}
{{- if include "kube-ts.etcdClientSecret" . }}
{{- /* Its own etcd user's client certificate: etcd's RBAC confines it to its own keys. */}}
- name: KUBE_ETCD_CAFILE
  value: /etc/kube-ts/etcd/ca.crt
- name: KUBE_ETCD_CERTFILE
  value: /etc/kube-ts/etcd/tls.crt
- name: KUBE_ETCD_KEYFILE
  value: /etc/kube-ts/etcd/tls.key
{{- end }}
- name: KUBE_ETCD_COMPACTION_INTERVAL
  value: {{ .root.Values.etcd.compactionInterval | quote }}
- name: KUBE_NATS_URL
  value: {{ include "kube-ts.natsUrl" .root | quote }}
- name: KUBE_BIND_ADDRESS
  value: "0.0.0.0"
- name: KUBE_SECURE_PORT
  value: {{ .values.port | quote }}
- name: KUBE_TLS_CERT_FILE
  value: /etc/kube-ts/serving/tls.crt
- name: KUBE_TLS_PRIVATE_KEY_FILE
  value: /etc/kube-ts/serving/tls.key
- name: KUBE_CLIENT_CA_FILE
  value: /etc/kube-ts/client-ca/ca.crt
- name: KUBE_MAX_REQUESTS_INFLIGHT
  value: {{ .root.Values.apiserver.maxRequestsInflight | quote }}
- name: KUBE_MAX_MUTATING_REQUESTS_INFLIGHT
  value: {{ .root.Values.apiserver.maxMutatingRequestsInflight | quote }}
- name: KUBE_REQUEST_TIMEOUT_SECONDS
  value: {{ .root.Values.apiserver.requestTimeoutSeconds | quote }}
- name: KUBE_MIN_REQUEST_TIMEOUT_SECONDS
  value: {{ .root.Values.apiserver.minRequestTimeoutSeconds | quote }}
- name: KUBE_PROFILING
  value: {{ ne (toString .root.Values.apiserver.profiling) "false" | quote }}
{{- if .root.Values.tracing.enabled }}
- name: KUBE_TRACING_CONFIG_FILE
  value: /etc/kube-ts/tracing/tracing-config.yaml
{{- end }}
{{- with include "kube-ts.tokenFile" . }}
- name: KUBE_TOKEN_AUTH_FILE
  value: /etc/kube-ts/tokens/{{ . }}
{{- end }}
{{- if hasKey (include "kube-ts.natsIdentities" .root | fromJson) .component }}
{{- /* Its NATS identity: the client certificate nats-server maps to its registration permissions. */}}
- name: KUBE_NATS_CA_FILE
  value: /etc/kube-ts/nats/ca.crt
- name: KUBE_NATS_CERT_FILE
  value: /etc/kube-ts/nats/tls.crt
- name: KUBE_NATS_KEY_FILE
  value: /etc/kube-ts/nats/tls.key
{{- end }}
{{- if has .component (list "core-api" "aggregator") }}
{{- /* Service-account tokens: core-api signs them, it and the front door verify them (the front door with the
public key only). */}}
- name: KUBE_SERVICE_ACCOUNT_KEY_FILE
  value: /etc/kube-ts/service-account/{{ ternary "sa.key" "sa.crt" (eq .component "core-api") }}
{{- if eq .component "core-api" }}
- name: KUBE_SERVICE_ACCOUNT_SIGNING_KEY_FILE
  value: /etc/kube-ts/service-account/sa.key
{{- end }}
{{- end }}
{{- end }}

{{/* Volumes every API server pod mounts: its serving certificate, the client and front-proxy CAs
(certificates only, never a key), its token file (kube-ts.tokenFile), and a writable /tmp (the root filesystem
is read-only). */}}
{{- define "kube-ts.apiserverVolumes" -}}
- name: serving
  secret:
    secretName: {{ include "kube-ts.componentName" . }}-serving
- name: client-ca
  secret:
    secretName: {{ include "kube-ts.fullname" .root }}-client-ca
    items:
      - key: tls.crt
        path: ca.crt
- name: front-proxy-ca
  secret:
    secretName: {{ include "kube-ts.fullname" .root }}-front-proxy-ca
    items:
      - key: tls.crt
        path: ca.crt
{{- with include "kube-ts.tokenFile" . }}
- name: tokens
  secret:
    secretName: {{ include "kube-ts.fullname" $.root }}-tokens
    items:
      - key: {{ . }}
        path: {{ . }}
{{- end }}
{{- if hasKey (include "kube-ts.natsIdentities" .root | fromJson) .component }}
- name: nats-client
  secret:
    secretName: {{ include "kube-ts.fullname" .root }}-nats-client-{{ .component }}
{{- end }}
{{- with include "kube-ts.etcdClientSecret" . }}
- name: etcd-client
  secret:
    secretName: {{ . }}
{{- end }}
{{- if has .component (list "core-api" "aggregator") }}
- name: service-account-key
  secret:
    secretName: {{ include "kube-ts.fullname" .root }}-service-account-key
    items:
      - key: {{ ternary "sa.key" "sa.crt" (eq .component "core-api") }}
        path: {{ ternary "sa.key" "sa.crt" (eq .component "core-api") }}
{{- end }}
{{- if .root.Values.tracing.enabled }}
- name: tracing-config
  configMap:
    name: {{ include "kube-ts.fullname" .root }}-tracing-config
{{- end }}
- name: tmp
  emptyDir: {}
{{- end }}

{{- define "kube-ts.apiserverVolumeMounts" -}}
- name: serving
  mountPath: /etc/kube-ts/serving
  readOnly: true
- name: client-ca
  mountPath: /etc/kube-ts/client-ca
  readOnly: true
- name: front-proxy-ca
  mountPath: /etc/kube-ts/front-proxy-ca
  readOnly: true
{{- if include "kube-ts.tokenFile" . }}
- name: tokens
  mountPath: /etc/kube-ts/tokens
  readOnly: true
{{- end }}
{{- if hasKey (include "kube-ts.natsIdentities" .root | fromJson) .component }}
- name: nats-client
  mountPath: /etc/kube-ts/nats
  readOnly: true
{{- end }}
{{- if include "kube-ts.etcdClientSecret" . }}
- name: etcd-client
  mountPath: /etc/kube-ts/etcd
  readOnly: true
{{- end }}
{{- if has .component (list "core-api" "aggregator") }}
- name: service-account-key
  mountPath: /etc/kube-ts/service-account
  readOnly: true
{{- end }}
{{- if .root.Values.tracing.enabled }}
- name: tracing-config
  mountPath: /etc/kube-ts/tracing
  readOnly: true
{{- end }}
- name: tmp
  mountPath: /tmp
{{- end }}

{{/* The probes' timing from .Values.probes. Takes dict: root, kind (liveness|readiness|startup). */}}
{{- define "kube-ts.probeTiming" -}}
{{- $p := index .root.Values.probes .kind -}}
periodSeconds: {{ $p.periodSeconds }}
timeoutSeconds: {{ $p.timeoutSeconds }}
failureThreshold: {{ $p.failureThreshold }}
{{- end }}

{{/* Pod-level settings shared by every component's pod spec (component dict). */}}
{{- define "kube-ts.podScheduling" -}}
{{- with .values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .values.affinity }}
affinity:
  {{- toYaml .values.affinity | nindent 2 }}
{{- else if eq .values.podAntiAffinity "soft" }}
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- include "kube-ts.selectorLabels" . | nindent 14 }}
{{- else if eq .values.podAntiAffinity "hard" }}
affinity:
  podAntiAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "kube-ts.selectorLabels" . | nindent 12 }}
{{- end }}
{{- with .values.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
Pod annotations: the user's, plus (pki.mode=generate) checksums of the certificates the pod mounts, so pods
roll when the chart reissues one. The apps read their certificates once at start.
*/}}
{{- define "kube-ts.podAnnotations" -}}
{{- if eq .root.Values.pki.mode "generate" }}
{{- include "kube-ts.pki.generated" .root }}
{{- $pki := .root.Values._generatedPki }}
checksum/serving-certificate: {{ (index $pki (printf "%s-serving" .component)).cert | sha256sum }}
{{- if eq .component "aggregator" }}
checksum/front-proxy-client: {{ (index $pki "front-proxy-client").cert | sha256sum }}
{{- end }}
{{- with index $pki (printf "%s-client" .component) }}
checksum/client-certificate: {{ .cert | sha256sum }}
{{- end }}
{{- with index $pki (printf "etcd-client-%s" .component) }}
checksum/etcd-client-certificate: {{ .cert | sha256sum }}
{{- end }}
{{- end }}
{{- with .values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
pki.mode=generate: computes every CA and certificate ONCE per render and caches them in
.Values._generatedPki, so the Secrets, the checksums and the APIService caBundle (different files) agree.
Kept across upgrades: an existing CA Secret is reused (buildCustomCert); an existing leaf Secret is reused
when its CA was reused and its subject/SANs (annotation kube-ts.io/subject-checksum) are unchanged;
anything else is generated. `helm template` and client-side dry runs cannot look up, so they always show
fresh material. Entries: ca, client-ca, front-proxy-ca, nats-ca, <component>-serving (controller-manager's
included), front-proxy-client, nats-server, nats-client-<identity>, controller-manager-client,
<aggregated server>-client, and with the bundled etcd etcd-ca, etcd-server, etcd-client-root and
etcd-client-<component> → {cert, key, ca, checksum}.
A serving certificate is not a client certificate: genSignedCert gives every leaf both extended key usages, so
the two are told apart by their CA. The cluster CA (ca) signs serving certificates, which clients verify; the
client CA (client-ca) signs client certificates, which the API servers accept (KUBE_CLIENT_CA_FILE) and the
controller-manager's CSR signer issues from; no server trusts ca for client certificates.
*/}}
{{- define "kube-ts.pki.generated" -}}
{{- $root := . }}
{{- if not (hasKey $root.Values "_generatedPki") }}
{{- $fullname := include "kube-ts.fullname" $root }}
{{- $ns := $root.Release.Namespace }}
{{- $pki := dict }}
{{- $cas := dict }}
{{- $caNames := list "ca" "client-ca" "front-proxy-ca" "nats-ca" }}
{{- $bundledEtcd := eq $root.Values.etcd.mode "bundled" }}
{{- if $bundledEtcd }}
{{- $caNames = append $caNames "etcd-ca" }}
{{- end }}
{{- range $caName := $caNames }}
{{- $existing := lookup "v1" "Secret" $ns (printf "%s-%s" $fullname $caName) }}
{{- $crt := dig "data" "tls.crt" "" $existing }}
{{- $key := dig "data" "tls.key" "" $existing }}
{{- $ca := dict }}
{{- $reused := false }}
{{- if and $crt $key }}
{{- $ca = buildCustomCert $crt $key }}
{{- $reused = true }}
{{- else }}
{{- $ca = genCA (printf "kube-ts-%s" $caName) (int $root.Values.pki.generate.caValidityDays) }}
{{- end }}
{{- $_ := set $cas $caName (dict "ca" $ca "reused" $reused) }}
{{- $_ := set $pki $caName (dict "cert" $ca.Cert "key" $ca.Key "ca" $ca.Cert "checksum" "") }}
{{- end }}
{{- $leaves := list }}
{{- $aggregated := list "sample-apiserver" }}
{{- range $root.Values.aggregatedApiservers | default list }}
{{- $aggregated = append $aggregated .name }}
{{- end }}
{{- range $component := concat (list "aggregator" "core-api" "extensions" "controller-manager") $aggregated }}
{{- $sans := include "kube-ts.sans" (dict "root" $root "component" $component) | fromJson }}
{{- $leaves = append $leaves (dict "name" (printf "%s-serving" $component) "cn" (printf "system:kube-ts:%s" $component) "ca" "ca" "dns" $sans.dns "ips" $sans.ips) }}
{{- end }}
{{- /* Each aggregated server's own identity (registration, reading the control plane): not its serving certificate. */}}
{{- range $component := $aggregated }}
{{- $leaves = append $leaves (dict "name" (printf "%s-client" $component) "cn" (printf "system:kube-ts:%s" $component) "ca" "client-ca" "dns" (list) "ips" (list)) }}
{{- end }}
{{- $leaves = append $leaves (dict "name" "front-proxy-client" "cn" "front-proxy-client" "ca" "front-proxy-ca" "dns" (list) "ips" (list)) }}
{{- $leaves = append $leaves (dict "name" "nats-server" "cn" "nats-server" "ca" "nats-ca" "dns" (include "kube-ts.natsDnsNames" $root | fromJsonArray) "ips" (list "127.0.0.1")) }}
{{- range $identity, $_ := include "kube-ts.natsIdentities" $root | fromJson }}
{{- $leaves = append $leaves (dict "name" (printf "nats-client-%s" $identity) "cn" $identity "ca" "nats-ca" "dns" (list) "ips" (list)) }}
{{- end }}
{{- $leaves = append $leaves (dict "name" "controller-manager-client" "cn" "system:kube-controller-manager" "ca" "client-ca" "dns" (list) "ips" (list)) }}
{{- /* Bundled etcd: its serving certificate (genSignedCert's client usage too, which etcd's own gateway needs)
and one client certificate per etcd user (CN = the user), root's only for the etcd-auth Job. */}}
{{- if $bundledEtcd }}
{{- $leaves = append $leaves (dict "name" "etcd-server" "cn" "etcd-server" "ca" "etcd-ca" "dns" (include "kube-ts.etcdDnsNames" $root | fromJsonArray) "ips" (list "127.0.0.1")) }}
{{- $leaves = append $leaves (dict "name" "etcd-client-root" "cn" "root" "ca" "etcd-ca" "dns" (list) "ips" (list)) }}
{{- range $component, $_ := include "kube-ts.etcdClients" $root | fromJson }}
{{- $leaves = append $leaves (dict "name" (printf "etcd-client-%s" $component) "cn" (printf "kube-ts:%s" $component) "ca" "etcd-ca" "dns" (list) "ips" (list)) }}
{{- end }}
{{- end }}
{{- range $leaf := $leaves }}
{{- $checksum := printf "%s|%s|%s" $leaf.cn (join "," $leaf.dns) (join "," $leaf.ips) | sha256sum }}
{{- $caEntry := index $cas $leaf.ca }}
{{- $existing := lookup "v1" "Secret" $ns (printf "%s-%s" $fullname $leaf.name) }}
{{- $crt := dig "data" "tls.crt" "" $existing }}
{{- $key := dig "data" "tls.key" "" $existing }}
{{- $oldChecksum := dig "metadata" "annotations" "kube-ts.io/subject-checksum" "" $existing }}
{{- if and $caEntry.reused $crt $key (eq $oldChecksum $checksum) }}
{{- $_ := set $pki $leaf.name (dict "cert" (b64dec $crt) "key" (b64dec $key) "ca" $caEntry.ca.Cert "checksum" $checksum) }}
{{- else }}
{{- $cert := genSignedCert $leaf.cn $leaf.ips $leaf.dns (int $root.Values.pki.generate.certValidityDays) $caEntry.ca }}
{{- $_ := set $pki $leaf.name (dict "cert" $cert.Cert "key" $cert.Key "ca" $caEntry.ca.Cert "checksum" $checksum) }}
{{- end }}
{{- end }}
{{- $_ := set $root.Values "_generatedPki" $pki }}
{{- end }}
{{- end }}

{{/*
A kubernetes.io/tls Secret (tls.crt, tls.key, ca.crt) from the generated PKI. Takes dict: root, entry
(a key of .Values._generatedPki), component (for labels).
*/}}
{{- define "kube-ts.pki.secret" -}}
{{- include "kube-ts.pki.generated" .root }}
{{- $e := index .root.Values._generatedPki .entry }}
apiVersion: v1
kind: Secret
type: kubernetes.io/tls
metadata:
  name: {{ include "kube-ts.fullname" .root }}-{{ .entry }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "kube-ts.labels" . | nindent 4 }}
  annotations:
    {{- if $e.checksum }}
    kube-ts.io/subject-checksum: {{ $e.checksum }}
    {{- end }}
    {{- if has .entry (list "ca" "client-ca" "front-proxy-ca" "nats-ca" "etcd-ca") }}
    # CAs survive `helm uninstall`: a reinstall then reuses them and clients' trust stays valid.
    helm.sh/resource-policy: keep
    {{- end }}
data:
  tls.crt: {{ $e.cert | b64enc }}
  tls.key: {{ $e.key | b64enc }}
  ca.crt: {{ $e.ca | b64enc }}
{{- end }}

{{/*
A cert-manager Certificate for a component's serving certificate (server auth only: no component
authenticates with it). Takes the component dict. ECDSA keys, which only sign: no keyEncipherment.
*/}}
{{- define "kube-ts.pki.servingCertificate" -}}
{{- $sans := include "kube-ts.sans" . | fromJson }}
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: {{ include "kube-ts.componentName" . }}-serving
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "kube-ts.labels" . | nindent 4 }}
spec:
  secretName: {{ include "kube-ts.componentName" . }}-serving
  commonName: system:kube-ts:{{ .component }}
  dnsNames:
    {{- toYaml $sans.dns | nindent 4 }}
  ipAddresses:
    {{- toYaml $sans.ips | nindent 4 }}
  duration: {{ .root.Values.pki.certManager.duration }}
  renewBefore: {{ .root.Values.pki.certManager.renewBefore }}
  privateKey:
    algorithm: ECDSA
    size: 256
    rotationPolicy: Always
  usages:
    - digital signature
    - server auth
  issuerRef:
    group: cert-manager.io
    kind: Issuer
    name: {{ include "kube-ts.fullname" .root }}-ca
{{- end }}

{{/*
A client certificate (client auth only) of the client CA: the identity `cn` a component authenticates to the
API servers with. Takes dict: root, component (labels), entry (<fullname>-<entry>, the Secret), cn.
*/}}
{{- define "kube-ts.pki.clientCertificate" -}}
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: {{ include "kube-ts.fullname" .root }}-{{ .entry }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "kube-ts.labels" . | nindent 4 }}
spec:
  secretName: {{ include "kube-ts.fullname" .root }}-{{ .entry }}
  commonName: {{ .cn }}
  duration: {{ .root.Values.pki.certManager.duration }}
  renewBefore: {{ .root.Values.pki.certManager.renewBefore }}
  privateKey:
    algorithm: ECDSA
    size: 256
    rotationPolicy: Always
  usages:
    - digital signature
    - client auth
  issuerRef:
    group: cert-manager.io
    kind: Issuer
    name: {{ include "kube-ts.fullname" .root }}-client-ca
{{- end }}

{{/* The Secret holding core-api's EncryptionConfiguration: the user's (encryption.existingSecret) or the chart's. */}}
{{- define "kube-ts.encryptionSecretName" -}}
{{- .Values.encryption.existingSecret | default (printf "%s-encryption-config" (include "kube-ts.fullname" .)) -}}
{{- end }}
