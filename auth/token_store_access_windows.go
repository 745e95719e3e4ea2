package auth

import "io/fs"

// checkTokenFileAccess accepts any token file on Windows. There the mode
// bits say nothing about other users: Go derives them from the read-only
// attribute alone, so every writable file reports 0666 and a mode check
// would refuse every file the store itself writes. Who may read a file is
// decided by its ACL, and reading an ACL needs golang.org/x/sys/windows, a
// dependency this module does not take for one check. The store relies on
// the directory's ACL instead: a file created under the user's profile
// (%USERPROFILE%, os.UserHomeDir, where gomcp keeps its tokens) inherits an
// ACL that grants access to that user, SYSTEM and Administrators only. A
// program that keeps its tokens elsewhere must give that directory a
// private ACL itself.
func checkTokenFileAccess(_ string, _ fs.FileInfo) error {
	return nil
}
