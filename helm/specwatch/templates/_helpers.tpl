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
{{- include "specwatch.securityEnv" . }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
Kafka SASL/TLS and registry auth settings (KafkaSecurityOptions). Only names, paths and types are
values; every password is a file of a mounted Secret (the *_FILE variables).
*/}}
{{- define "specwatch.securityEnv" -}}
{{- $sec := .Values.kafka.security }}
{{- $tlsDir := .Values.kafka.tlsMountPath }}
{{- with $sec.protocol }}
- name: SPECWATCH_KAFKA_SECURITY_PROTOCOL
  value: {{ . | quote }}
{{- end }}
{{- if $sec.sasl.mechanism }}
- name: SPECWATCH_KAFKA_SASL_MECHANISM
  value: {{ $sec.sasl.mechanism | quote }}
- name: SPECWATCH_KAFKA_SASL_USERNAME
  value: {{ required "kafka.security.sasl.username is required with kafka.security.sasl.mechanism" $sec.sasl.username | quote }}
- name: SPECWATCH_KAFKA_SASL_PASSWORD_FILE
  value: /etc/specwatch/kafka-sasl/{{ $sec.sasl.passwordSecretKey }}
{{- end }}
{{- range $key, $var := dict "truststoreKey" "SPECWATCH_KAFKA_TRUSTSTORE" "truststorePasswordKey" "SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD_FILE" "keystoreKey" "SPECWATCH_KAFKA_KEYSTORE" "keystorePasswordKey" "SPECWATCH_KAFKA_KEYSTORE_PASSWORD_FILE" "keyPasswordKey" "SPECWATCH_KAFKA_KEY_PASSWORD_FILE" }}
{{- with index $sec.tls $key }}
- name: {{ $var }}
  value: {{ printf "%s/%s" $tlsDir . | quote }}
{{- end }}
{{- end }}
{{- with $sec.tls.truststoreType }}
- name: SPECWATCH_KAFKA_TRUSTSTORE_TYPE
  value: {{ . | quote }}
{{- end }}
{{- with $sec.tls.keystoreType }}
- name: SPECWATCH_KAFKA_KEYSTORE_TYPE
  value: {{ . | quote }}
{{- end }}
{{- if .Values.schemaRegistry.username }}
- name: SPECWATCH_REGISTRY_USER
  value: {{ .Values.schemaRegistry.username | quote }}
- name: SPECWATCH_REGISTRY_PASSWORD_FILE
  value: /etc/specwatch/registry/{{ .Values.schemaRegistry.passwordSecretKey }}
{{- end }}
{{- end }}

{{/* Fails the render when a security setting needs a Secret that is not configured. */}}
{{- define "specwatch.validateSecurity" -}}
{{- $sec := .Values.kafka.security }}
{{- if and $sec.sasl.mechanism (not $sec.sasl.passwordSecret) }}
{{- fail "kafka.security.sasl.mechanism needs kafka.security.sasl.passwordSecret (a Secret holding the SASL password; never a plain value)" }}
{{- end }}
{{- if and (or $sec.tls.truststoreKey $sec.tls.keystoreKey $sec.tls.truststorePasswordKey $sec.tls.keystorePasswordKey $sec.tls.keyPasswordKey) (not .Values.kafka.tlsSecret) }}
{{- fail "kafka.security.tls.* keys name files in kafka.tlsSecret: set kafka.tlsSecret" }}
{{- end }}
{{- if and .Values.schemaRegistry.username (not .Values.schemaRegistry.passwordSecret) }}
{{- fail "schemaRegistry.username needs schemaRegistry.passwordSecret (a Secret holding the registry password; never a plain value)" }}
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
{{- if .Values.kafka.security.sasl.mechanism }}
- name: kafka-sasl
  secret:
    secretName: {{ .Values.kafka.security.sasl.passwordSecret }}
    defaultMode: 0440
    items:
      - key: {{ .Values.kafka.security.sasl.passwordSecretKey }}
        path: {{ .Values.kafka.security.sasl.passwordSecretKey }}
{{- end }}
{{- if .Values.schemaRegistry.username }}
- name: registry-auth
  secret:
    secretName: {{ .Values.schemaRegistry.passwordSecret }}
    defaultMode: 0440
    items:
      - key: {{ .Values.schemaRegistry.passwordSecretKey }}
        path: {{ .Values.schemaRegistry.passwordSecretKey }}
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
{{- if .Values.kafka.security.sasl.mechanism }}
- name: kafka-sasl
  mountPath: /etc/specwatch/kafka-sasl
  readOnly: true
{{- end }}
{{- if .Values.schemaRegistry.username }}
- name: registry-auth
  mountPath: /etc/specwatch/registry
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
