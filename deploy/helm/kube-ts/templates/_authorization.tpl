{{/*
Structured authorization (kube's --authorization-config, KUBE_AUTHORIZATION_CONFIG) for the servers that authorize
with the control plane's chain: the front door, core-api (and the review APIs the aggregated servers delegate to)
and extensions. The AuthorizationConfiguration and the files it names (webhook kubeconfigs, CAs, client keys) are
one Secret mounted at /etc/kube-ts/authorization; the servers re-read the file when the Secret changes.
*/}}
{{- define "kube-ts.authorizationEnabled" -}}
{{- if and .Values.authorization.existingSecret (or .Values.authorization.config .Values.authorization.files) -}}
{{- fail "authorization.existingSecret holds the configuration and its files: leave authorization.config and authorization.files empty" -}}
{{- end -}}
{{- if or .Values.authorization.config .Values.authorization.existingSecret }}true{{ end -}}
{{- end }}

{{- define "kube-ts.authorizationSecretName" -}}
{{- .Values.authorization.existingSecret | default (printf "%s-authorization-config" (include "kube-ts.fullname" .)) -}}
{{- end }}

{{- define "kube-ts.authorizationEnv" -}}
# kube's --authorization-config (authorization-config-secret.yaml), re-read when it changes.
- name: KUBE_AUTHORIZATION_CONFIG
  value: /etc/kube-ts/authorization/authorization-config.yaml
{{- end }}

{{- define "kube-ts.authorizationVolumeMount" -}}
- name: authorization-config
  mountPath: /etc/kube-ts/authorization
  readOnly: true
{{- end }}

{{- define "kube-ts.authorizationVolume" -}}
- name: authorization-config
  secret:
    secretName: {{ include "kube-ts.authorizationSecretName" . }}
{{- end }}
