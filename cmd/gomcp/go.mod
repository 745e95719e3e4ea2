module github.com/gomcp/sdk/cmd/gomcp

go 1.25.0

require (
	github.com/chzyer/readline v1.5.1
	github.com/go-json-experiment/json v0.0.0-20251027170946-4849db3c2f7e
	github.com/gomcp/sdk v0.0.0
	github.com/gomcp/sdk/auth v0.0.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/term v0.37.0
	golang.org/x/tools v0.49.0
)

require golang.org/x/sys v0.47.0 // indirect
