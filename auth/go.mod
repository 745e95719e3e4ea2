module github.com/gomcp/sdk/auth

go 1.25.0

replace github.com/gomcp/sdk => ../

require github.com/gomcp/sdk v0.0.0

require github.com/go-json-experiment/json v0.0.0-20251027170946-4849db3c2f7e // indirect
