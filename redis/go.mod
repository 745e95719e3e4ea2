module github.com/gomcp/sdk/redis

go 1.26.0

require (
	github.com/alicebob/miniredis/v2 v2.40.0
	github.com/gomcp/sdk v0.0.0
	github.com/gomcp/sdk/auth v0.0.0
	github.com/redis/go-redis/v9 v9.23.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/go-jose/go-jose/v4 v4.1.9 // indirect
	github.com/go-json-experiment/json v0.0.0-20251027170946-4849db3c2f7e // indirect
	github.com/yuin/gopher-lua v1.1.1 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/gomcp/sdk => ../

replace github.com/gomcp/sdk/auth => ../auth
