{{/* Names, labels and image references shared by the chart's templates. */}}

{{- define "drivequal.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "drivequal.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "drivequal.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "drivequal.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "drivequal.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* registry/repository:tag, the tag defaulting to the chart's appVersion. */}}
{{- define "drivequal.image" -}}
{{- $tag := default .root.Chart.AppVersion .image.tag -}}
{{- if .root.Values.image.registry -}}
{{- printf "%s/%s:%s" .root.Values.image.registry .image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .image.repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "drivequal.imagePullSecrets" -}}
{{- with .Values.image.pullSecrets }}
imagePullSecrets:
{{- range . }}
  - name: {{ . }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
The service's connection and security environment (the names docs/operations.md lists). Secrets
are files under /run/secrets/drivequal, never values in the pod spec. Used by the Deployment and
the setup Job.
*/}}
{{- define "drivequal.serviceEnv" -}}
- name: KAFKA_BOOTSTRAP_SERVERS
  value: {{ .Values.kafka.bootstrapServers | quote }}
- name: KAFKA_SECURITY_PROTOCOL
  value: {{ .Values.kafka.securityProtocol | quote }}
{{- if hasPrefix "SASL" .Values.kafka.securityProtocol }}
- name: KAFKA_SASL_MECHANISM
  value: {{ .Values.kafka.sasl.mechanism | quote }}
- name: KAFKA_SASL_USERNAME
  value: {{ required "kafka.sasl.service.username is required with a SASL protocol" .Values.kafka.sasl.service.username | quote }}
- name: KAFKA_SASL_PASSWORD_FILE
  value: /run/secrets/drivequal/kafka-password
{{- end }}
{{- if .Values.kafka.tls.caSecret.name }}
- name: KAFKA_SSL_CA_FILE
  value: /run/secrets/drivequal/kafka-ca.pem
{{- end }}
- name: DRIVEQUAL_KAFKA_TOPICS_REPLICAS
  value: {{ .Values.kafka.topics.replicas | quote }}
- name: ELASTICSEARCH_URL
  value: {{ .Values.elasticsearch.url | quote }}
{{- if .Values.elasticsearch.apiKeySecret.name }}
- name: ELASTICSEARCH_API_KEY_FILE
  value: /run/secrets/drivequal/elasticsearch-api-key
{{- end }}
{{- if .Values.elasticsearch.tls.caSecret.name }}
- name: ELASTICSEARCH_CA_FILE
  value: /run/secrets/drivequal/elasticsearch-ca.pem
{{- end }}
- name: DRIVEQUAL_SECURITY_MODE
  value: {{ .Values.service.security.mode | quote }}
{{- if and (eq .Values.service.security.mode "jwt") .Values.service.security.jwtIssuerUri }}
- name: SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUER_URI
  value: {{ .Values.service.security.jwtIssuerUri | quote }}
- name: DRIVEQUAL_SECURITY_ROLES_CLAIM
  value: {{ .Values.service.security.rolesClaim | quote }}
{{- end }}
- name: DRIVEQUAL_LOG_FORMAT
  value: {{ .Values.service.logFormat | quote }}
- name: JAVA_TOOL_OPTIONS
  value: {{ .Values.service.javaOpts | quote }}
{{- /* The sample indices' shape: the setup Job and every replica install the same template. */}}
- name: DRIVEQUAL_SAMPLE_INDEX_PERIOD
  value: {{ .Values.service.sampleIndex.period | quote }}
{{- if ne (toString .Values.service.sampleIndex.shards) "" }}
- name: DRIVEQUAL_SAMPLE_INDEX_SHARDS
  value: {{ .Values.service.sampleIndex.shards | quote }}
{{- end }}
{{- if ne (toString .Values.service.sampleIndex.replicas) "" }}
- name: DRIVEQUAL_SAMPLE_INDEX_REPLICAS
  value: {{ .Values.service.sampleIndex.replicas | quote }}
{{- end }}
{{- end -}}

{{/* envFrom for local mode's users. */}}
{{- define "drivequal.serviceEnvFrom" -}}
{{- if eq .Values.service.security.mode "local" }}
envFrom:
  - secretRef:
      name: {{ required "service.security.usersSecret is required in local mode" .Values.service.security.usersSecret }}
{{- end }}
{{- end -}}

{{/* One projected volume with every secret file the service reads. */}}
{{- define "drivequal.serviceSecretsVolume" -}}
- name: secrets
  projected:
    defaultMode: 0440
    sources:
{{- if hasPrefix "SASL" .Values.kafka.securityProtocol }}
      - secret:
          name: {{ required "kafka.sasl.service.passwordSecret.name is required with a SASL protocol" .Values.kafka.sasl.service.passwordSecret.name }}
          items: [{key: {{ .Values.kafka.sasl.service.passwordSecret.key }}, path: kafka-password}]
{{- end }}
{{- with .Values.kafka.tls.caSecret }}{{ if .name }}
      - secret:
          name: {{ .name }}
          items: [{key: {{ .key }}, path: kafka-ca.pem}]
{{- end }}{{ end }}
{{- with .Values.elasticsearch.apiKeySecret }}{{ if .name }}
      - secret:
          name: {{ .name }}
          items: [{key: {{ .key }}, path: elasticsearch-api-key}]
{{- end }}{{ end }}
{{- with .Values.elasticsearch.tls.caSecret }}{{ if .name }}
      - secret:
          name: {{ .name }}
          items: [{key: {{ .key }}, path: elasticsearch-ca.pem}]
{{- end }}{{ end }}
{{- end -}}

{{/* "true" when the service reads any secret file. */}}
{{- define "drivequal.serviceHasSecrets" -}}
{{- if or (hasPrefix "SASL" .Values.kafka.securityProtocol) .Values.kafka.tls.caSecret.name .Values.elasticsearch.apiKeySecret.name .Values.elasticsearch.tls.caSecret.name -}}
true
{{- end -}}
{{- end -}}

{{/* The setup Job's container: the service image in its one-shot "setup" profile. */}}
{{- define "drivequal.setupContainer" -}}
- name: setup
  image: {{ include "drivequal.image" (dict "root" . "image" .Values.service.image) | quote }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  env:
    {{- include "drivequal.serviceEnv" . | nindent 4 }}
    - name: SPRING_PROFILES_ACTIVE
      value: setup
  {{- include "drivequal.serviceEnvFrom" . | nindent 2 }}
  resources:
    {{- toYaml .Values.setup.resources | nindent 4 }}
  securityContext:
    {{- toYaml .Values.service.securityContext | nindent 4 }}
  volumeMounts:
    - {name: tmp, mountPath: /tmp}
    {{- if include "drivequal.serviceHasSecrets" . }}
    - {name: secrets, mountPath: /run/secrets/drivequal, readOnly: true}
    {{- end }}
{{- end -}}
