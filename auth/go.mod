module github.com/gomcp/sdk/auth

go 1.25.0

replace github.com/gomcp/sdk => ../
