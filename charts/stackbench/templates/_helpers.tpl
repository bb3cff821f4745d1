{{/* The chart name, overridable. */}}
{{- define "stackbench.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release-scoped name of the chart's resources; the release name alone when it already says stackbench. */}}
{{- define "stackbench.fullname" -}}
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

{{- define "stackbench.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every resource of the chart. */}}
{{- define "stackbench.labels" -}}
helm.sh/chart: {{ include "stackbench.chart" . }}
{{ include "stackbench.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: stackbench
{{- end }}

{{/* Labels selecting the operator pods. */}}
{{- define "stackbench.selectorLabels" -}}
app.kubernetes.io/name: {{ include "stackbench.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "stackbench.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "stackbench.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false: name an existing ServiceAccount" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "stackbench.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The operator's leader-election Lease (fixed in the operator: StackbenchOperator.LEASE_NAME). */}}
{{- define "stackbench.leaseName" -}}
stackbench-operator
{{- end }}

{{/* Pod security context meeting the Pod Security "restricted" profile. */}}
{{- define "stackbench.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Container security context meeting the Pod Security "restricted" profile. */}}
{{- define "stackbench.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop:
    - ALL
{{- end }}

{{/*
The namespaces the operator watches, comma-separated: the release namespace unless watch.namespaces lists others;
empty with watch.allNamespaces (every namespace).
*/}}
{{- define "stackbench.watchedNamespaces" -}}
{{- if .Values.watch.allNamespaces }}
{{- if .Values.watch.namespaces }}
{{- fail "watch.allNamespaces is true and watch.namespaces lists namespaces: set one of them (allNamespaces: false to watch the listed namespaces only, or namespaces: [] to watch all)" }}
{{- end }}
{{- else if .Values.watch.namespaces }}
{{- join "," .Values.watch.namespaces }}
{{- else }}
{{- .Release.Namespace }}
{{- end }}
{{- end }}

{{/* The external database hosts runs may name: the policy's, and the chart's PostgreSQL when it is installed. */}}
{{- define "stackbench.allowedDatabaseHosts" -}}
{{- $hosts := .Values.policy.externalDatabases.allowedHosts }}
{{- if .Values.postgresql.enabled }}
{{- $host := printf "%s-postgresql" .Release.Name }}
{{- $hosts = concat $hosts (list $host (printf "%s.%s" $host .Release.Namespace) (printf "%s.%s.svc" $host .Release.Namespace) (printf "%s.%s.svc.cluster.local" $host .Release.Namespace)) }}
{{- end }}
{{- join "," (uniq $hosts) }}
{{- end }}

{{/* What the operator does in a watched namespace; each rule says what for. */}}
{{- define "stackbench.operatorRules" -}}
# The BenchmarkRuns it reconciles, their status and their finalizer; it creates the runs of a comparison.
- apiGroups: ["stackbench.dev"]
  resources: ["benchmarkruns"]
  verbs: ["create", "get", "list", "watch", "patch", "update"]
- apiGroups: ["stackbench.dev"]
  resources: ["benchmarkruns/status"]
  verbs: ["get", "patch", "update"]
- apiGroups: ["stackbench.dev"]
  resources: ["benchmarkruns/finalizers"]
  verbs: ["update", "patch"]
# The BenchmarkComparisons it reconciles and their status; the runs they create are owned by them.
- apiGroups: ["stackbench.dev"]
  resources: ["benchmarkcomparisons"]
  verbs: ["get", "list", "watch", "patch", "update"]
- apiGroups: ["stackbench.dev"]
  resources: ["benchmarkcomparisons/status"]
  verbs: ["get", "patch", "update"]
# What a run deploys: target and delay service Deployments and Services, the k6 script ConfigMap (and a
# custom script's ConfigMap it reads), and the Secret with the password of a run's own database: created and
# deleted by name, never read or listed (target pods reference database Secrets themselves).
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["create", "get", "list", "watch", "update", "patch", "delete"]
- apiGroups: [""]
  resources: ["services", "configmaps"]
  verbs: ["create", "get", "list", "watch", "update", "patch", "delete"]
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["create", "delete"]
{{- if .Values.policy.databaseSecrets.label }}
# The label policy.databaseSecrets.label asks for, on the Secret a run names for its external database.
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get"]
{{- end }}
# A run's NetworkPolicies: each of its pods reaches, and is reached by, only the run's pods it must; created with
# server-side apply (patch) and removed with the run.
- apiGroups: ["networking.k8s.io"]
  resources: ["networkpolicies"]
  verbs: ["create", "get", "list", "watch", "update", "patch", "delete"]
# The k6-operator TestRun that drives the load.
- apiGroups: ["k6.io"]
  resources: ["testruns"]
  verbs: ["create", "get", "list", "watch", "update", "patch", "delete"]
# Readiness of targets, the k6 runners' results (their pods' logs and Jobs), and the targets' metrics,
# scraped through the API server's pod proxy.
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
# The pod that verifies a run's work per request before its load: created, and deleted with the run.
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["create", "delete"]
- apiGroups: [""]
  resources: ["pods/log", "pods/proxy"]
  verbs: ["get"]
- apiGroups: ["batch"]
  resources: ["jobs"]
  verbs: ["get", "list", "watch"]
# Events on BenchmarkRuns for every step a run takes.
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
{{- end }}

{{/*
The bundled kube-prometheus-stack's Prometheus (when kube-prometheus-stack.enabled), named as that chart names it:
its fullname, at most 26 characters, then "-prometheus"; else empty.
*/}}
{{- define "stackbench.bundledPrometheusUrl" -}}
{{- if (index .Values "kube-prometheus-stack" "enabled") -}}
{{- $kps := index .Values "kube-prometheus-stack" -}}
{{- $name := "" -}}
{{- if $kps.fullnameOverride -}}
{{- $name = $kps.fullnameOverride | trunc 26 | trimSuffix "-" -}}
{{- else if contains "kube-prometheus-stack" .Release.Name -}}
{{- $name = .Release.Name | trunc 26 | trimSuffix "-" -}}
{{- else -}}
{{- $name = printf "%s-%s" .Release.Name "kube-prometheus-stack" | trunc 26 | trimSuffix "-" -}}
{{- end -}}
{{- printf "http://%s-prometheus.%s.svc:9090" $name .Release.Namespace -}}
{{- end -}}
{{- end -}}

{{/* The Prometheus the operator queries for PromQL checks: metrics.prometheusUrl, else the bundled one, else empty. */}}
{{- define "stackbench.prometheusUrl" -}}
{{- default (include "stackbench.bundledPrometheusUrl" .) .Values.metrics.prometheusUrl -}}
{{- end -}}

{{/* The remote-write URL of k6's metrics: k6.remoteWrite.url, else the bundled Prometheus's receiver, else empty. */}}
{{- define "stackbench.k6RemoteWriteUrl" -}}
{{- $rw := .Values.k6.remoteWrite -}}
{{- if $rw.enabled -}}
{{- if $rw.url -}}
{{- $rw.url -}}
{{- else if include "stackbench.bundledPrometheusUrl" . -}}
{{- printf "%s/api/v1/write" (include "stackbench.bundledPrometheusUrl" .) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A map of labels as comma-separated key=value pairs, keys sorted. */}}
{{- define "stackbench.mapAsPairs" -}}
{{- $pairs := list -}}
{{- range $key, $value := . -}}
{{- $pairs = append $pairs (printf "%s=%s" $key $value) -}}
{{- end -}}
{{- join "," $pairs -}}
{{- end -}}

{{/*
"true" when the PodMonitor and the dashboard are to be created (metrics.monitors): always, never, or when the
cluster serves PodMonitors or the bundled kube-prometheus-stack is enabled.
*/}}
{{- define "stackbench.monitors" -}}
{{- $mode := toString .Values.metrics.monitors -}}
{{- if eq $mode "true" -}}
true
{{- else if eq $mode "auto" -}}
{{- if or (index .Values "kube-prometheus-stack" "enabled") (.Capabilities.APIVersions.Has "monitoring.coreos.com/v1/PodMonitor") -}}
true
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The image of the exporter beside each run's own database (metrics.databaseExporter), or empty for none. */}}
{{- define "stackbench.databaseExporterImage" -}}
{{- $mode := toString .Values.metrics.databaseExporter.enabled -}}
{{- if or (eq $mode "true") (and (eq $mode "auto") (include "stackbench.monitors" .)) -}}
{{- .Values.metrics.databaseExporter.image -}}
{{- end -}}
{{- end -}}
