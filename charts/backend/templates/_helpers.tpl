{{- define "backend.labels" -}}
app.kubernetes.io/name: tailgate-backend
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
{{- define "backend.selector" -}}
app: tailgate-backend
release: {{ .Release.Name }}
{{- end }}
{{- /* The head's own port (a duet canary: a delay or an error share on its route only). */ -}}
{{- define "backend.headPort" -}}
{{- if or (gt (float64 .Values.ingress.extraClassDelayMs) 0.0) (gt (float64 .Values.ingress.extraClassErrorPercent) 0.0) (gt (float64 .Values.ingress.extraClassAltErrorPercent) 0.0) }}true{{ end }}
{{- end }}
{{- /* One response location: plain nginx, or Lua when it sleeps or fails a share with 503. */ -}}
{{- define "backend.location" -}}
{{- $share := .delayPercent | default 100.0 | float64 }}
{{- if or (gt .delay 0.0) (gt .errors 0.0) }}
location = {{ .path }} { content_by_lua_block { {{ if gt .errors 0.0 }}if math.random() < {{ divf .errors 100 }} then return ngx.exit(503) end {{ end }}{{ if gt .delay 0.0 }}{{ if lt $share 100.0 }}if math.random() < {{ divf $share 100 }} then ngx.sleep({{ divf .delay 1000 }}) end {{ else }}ngx.sleep({{ divf .delay 1000 }}) {{ end }}{{ end }}ngx.print("{{ .body }}") } }
{{- else }}
location = {{ .path }} { return 200 "{{ .body }}"; }
{{- end }}
{{- end }}
