{{/* Chart name, truncated to the 63 characters a DNS label allows. */}}
{{- define "specwatch.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-qualified name; component names append "-shipper", "-streams", "-sink". */}}
{{- define "specwatch.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" }}
{{- else if contains (include "specwatch.name" .) .Release.Name }}
{{- .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "specwatch.name" .) | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "specwatch.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Common labels; call with (dict "root" $ "component" "sink"). */}}
{{- define "specwatch.labels" -}}
helm.sh/chart: {{ include "specwatch.chart" .root }}
{{ include "specwatch.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: specwatch
{{- end }}

{{- define "specwatch.selectorLabels" -}}
app.kubernetes.io/name: {{ include "specwatch.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* The app image: the tag defaults to the chart's appVersion (never "latest"). */}}
{{- define "specwatch.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion -}}
{{- if .Values.image.digest -}}
{{ printf "%s:%s@%s" .Values.image.repository $tag .Values.image.digest }}
{{- else -}}
{{ printf "%s:%s" .Values.image.repository $tag }}
{{- end -}}
{{- end }}

{{/* Name of the Secret holding the raw Kafka client properties, or "" when none is configured. */}}
{{- define "specwatch.kafkaSecretName" -}}
{{- if .Values.kafka.existingSecret -}}
{{ .Values.kafka.existingSecret }}
{{- else if .Values.kafka.clientProperties -}}
{{ include "specwatch.fullname" . }}-kafka-client
{{- end -}}
{{- end }}

{{- define "specwatch.clickhouseSecretName" -}}
{{- if .Values.clickhouse.existingSecret -}}
{{ .Values.clickhouse.existingSecret }}
{{- else -}}
{{ include "specwatch.fullname" . }}-clickhouse
{{- end -}}
{{- end }}

{{/* checksum/config: changes whenever a ConfigMap or Secret the pods read changes. */}}
{{- define "specwatch.configChecksum" -}}
{{- $cm := include (print .Template.BasePath "/configmap.yaml") . -}}
{{- $secret := include (print .Template.BasePath "/secret.yaml") . -}}
{{- printf "%s\n%s" $cm $secret | sha256sum -}}
{{- end }}

{{- define "specwatch.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser }}
runAsGroup: {{ .Values.securityContext.runAsGroup }}
fsGroup: {{ .Values.securityContext.fsGroup }}
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "specwatch.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser }}
runAsGroup: {{ .Values.securityContext.runAsGroup }}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Env every app reads: Kafka, registry, health port, Kafka properties file. */}}
{{- define "specwatch.commonEnv" -}}
- name: SPECWATCH_HEALTH_PORT
  value: {{ .Values.health.port | quote }}
- name: SPECWATCH_LOG_FORMAT
  value: {{ .Values.logFormat | default "json" | quote }}
{{- if include "specwatch.kafkaSecretName" . }}
- name: SPECWATCH_KAFKA_PROPERTIES_FILE
  value: /etc/specwatch/kafka/{{ .Values.kafka.existingSecretKey }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "specwatch.clickhouseEnv" -}}
- name: SPECWATCH_CLICKHOUSE_USER
  valueFrom:
    secretKeyRef:
      name: {{ include "specwatch.clickhouseSecretName" . }}
      key: {{ .Values.clickhouse.existingSecretUserKey }}
- name: SPECWATCH_CLICKHOUSE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "specwatch.clickhouseSecretName" . }}
      key: {{ .Values.clickhouse.existingSecretPasswordKey }}
{{- end }}

{{/* Volumes every pod has: /tmp (the root filesystem is read-only), the Kafka client Secret. */}}
{{- define "specwatch.commonVolumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- if include "specwatch.kafkaSecretName" . }}
- name: kafka-client
  secret:
    secretName: {{ include "specwatch.kafkaSecretName" . }}
    defaultMode: 0440
{{- end }}
{{- if .Values.kafka.tlsSecret }}
- name: kafka-tls
  secret:
    secretName: {{ .Values.kafka.tlsSecret }}
    defaultMode: 0440
{{- end }}
{{- end }}

{{- define "specwatch.commonMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if include "specwatch.kafkaSecretName" . }}
- name: kafka-client
  mountPath: /etc/specwatch/kafka
  readOnly: true
{{- end }}
{{- if .Values.kafka.tlsSecret }}
- name: kafka-tls
  mountPath: {{ .Values.kafka.tlsMountPath }}
  readOnly: true
{{- end }}
{{- end }}

{{- define "specwatch.probes" -}}
livenessProbe:
  httpGet:
    path: /health/live
    port: health
  initialDelaySeconds: {{ .Values.health.liveness.initialDelaySeconds }}
  periodSeconds: {{ .Values.health.liveness.periodSeconds }}
  timeoutSeconds: {{ .Values.health.liveness.timeoutSeconds }}
  failureThreshold: {{ .Values.health.liveness.failureThreshold }}
readinessProbe:
  httpGet:
    path: /health/ready
    port: health
  initialDelaySeconds: {{ .Values.health.readiness.initialDelaySeconds }}
  periodSeconds: {{ .Values.health.readiness.periodSeconds }}
  timeoutSeconds: {{ .Values.health.readiness.timeoutSeconds }}
  failureThreshold: {{ .Values.health.readiness.failureThreshold }}
{{- end }}

{{- define "specwatch.healthPort" -}}
- name: health
  containerPort: {{ .Values.health.port }}
  protocol: TCP
{{- end }}
