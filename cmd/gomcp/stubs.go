package main

import "context"

func cmdBench(ctx context.Context, c *cmdCtx) error  { return usageError("bench: not yet") }
func cmdShell(ctx context.Context, c *cmdCtx) error  { return usageError("shell: not yet") }
func cmdRecord(ctx context.Context, c *cmdCtx) error { return usageError("record: not yet") }
func cmdReplay(ctx context.Context, c *cmdCtx) error { return usageError("replay: not yet") }
func cmdBridge(ctx context.Context, c *cmdCtx) error { return usageError("bridge: not yet") }
