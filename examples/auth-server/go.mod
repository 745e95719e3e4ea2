module github.com/gomcp/sdk/examples/auth-server

go 1.25.0

require (
	github.com/gomcp/sdk v0.0.0
	github.com/gomcp/sdk/auth v0.0.0
)

require (
	github.com/go-jose/go-jose/v4 v4.1.9 // indirect
	github.com/go-json-experiment/json v0.0.0-20251027170946-4849db3c2f7e // indirect
)

replace (
	github.com/gomcp/sdk => ../..
	github.com/gomcp/sdk/auth => ../../auth
)
