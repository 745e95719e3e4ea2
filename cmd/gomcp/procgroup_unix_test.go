//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup makes cmd run in a process group of its own, and its
// cancellation kill the whole group: a shell's children (a server started
// by a README command) never outlive the test.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
