package redis_test

import "os"

// redisAddr is the address of a real Redis to test against, from
// GOMCP_REDIS_ADDR; empty means miniredis.
func redisAddr() string { return os.Getenv("GOMCP_REDIS_ADDR") }
