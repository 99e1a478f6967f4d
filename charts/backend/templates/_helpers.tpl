{{- define "backend.labels" -}}
app.kubernetes.io/name: tailgate-backend
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
{{- define "backend.selector" -}}
app: tailgate-backend
release: {{ .Release.Name }}
{{- end }}
