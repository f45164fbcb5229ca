{{/*
The Secret holding the front door's audit webhook kubeconfig: aggregator.audit.webhook.existingSecret, the one
audit-webhook-secret.yaml renders from aggregator.audit.webhook.kubeconfig, or "" (no webhook). Called with the
component dict ($c).
*/}}
{{- define "kube-ts.auditWebhookSecret" -}}
{{- $w := .root.Values.aggregator.audit.webhook -}}
{{- if $w.existingSecret -}}
{{- $w.existingSecret -}}
{{- else if $w.kubeconfig -}}
{{- include "kube-ts.componentName" . -}}-audit-webhook
{{- end -}}
{{- end -}}
