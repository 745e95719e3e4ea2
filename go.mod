module github.com/gomcp/sdk

go 1.25

require github.com/go-json-experiment/json v0.0.0-20251027170946-4849db3c2f7e
