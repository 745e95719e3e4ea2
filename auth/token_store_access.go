//go:build !windows

package auth

import (
	"fmt"
	"io/fs"
)

// checkTokenFileAccess refuses a token file whose mode lets its group or
// other users read, write or run it: only the owner's bits may be set.
func checkTokenFileAccess(path string, fi fs.FileInfo) error {
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%w: %s has mode %v", ErrInsecureTokenFile, path, fi.Mode().Perm())
	}
	return nil
}
