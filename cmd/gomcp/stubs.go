package main

import "context"

func cmdBench(ctx context.Context, c *cmdCtx) error  { return usageError("bench: not yet") }
func cmdShell(ctx context.Context, c *cmdCtx) error  { return usageError("shell: not yet") }
