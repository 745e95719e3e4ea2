package service

import (
	"errors"

	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/gosrc"
	"github.com/gomcp/sdk/pkgdocs/internal/npm"
	"github.com/gomcp/sdk/pkgdocs/internal/pypi"
	"github.com/gomcp/sdk/pkgdocs/internal/rust"
	"github.com/gomcp/sdk/pkgdocs/internal/swift"
	"github.com/gomcp/sdk/pkgdocs/internal/untrusted"
)

// classifiedError keeps a source's error and message, and adds the
// service-level class callers test with errors.Is (ErrNotFound,
// ErrInvalidArgument).
type classifiedError struct {
	err, class error
}

func (e *classifiedError) Error() string   { return e.err.Error() }
func (e *classifiedError) Unwrap() []error { return []error{e.err, e.class} }

var (
	notFoundErrors = []error{
		fetch.ErrNotFound, gosrc.ErrNotFound, npm.ErrNotFound, npm.ErrVersionNotFound, pypi.ErrNotFound, pypi.ErrVersionNotFound,
		rust.ErrNotFound, rust.ErrVersionNotFound, swift.ErrNotFound, swift.ErrVersionNotFound, swift.ErrNotPackage,
	}
	invalidErrors = []error{npm.ErrInvalidName, pypi.ErrInvalidName, rust.ErrInvalidName, swift.ErrInvalidName}
)

// classify maps the sources' sentinel errors onto the service's.
func classify(err error) error {
	if err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalidArgument) {
		return err
	}
	for _, e := range invalidErrors {
		if errors.Is(err, e) {
			return &classifiedError{err, ErrInvalidArgument}
		}
	}
	for _, e := range notFoundErrors {
		if errors.Is(err, e) {
			return &classifiedError{err, ErrNotFound}
		}
	}
	return err
}

// cleanedError is an error whose message held hidden characters (a file
// name or a parse error quoting a package's bytes): it shows the message
// without them and still unwraps to the original.
type cleanedError struct {
	msg string
	err error
}

func (e *cleanedError) Error() string { return e.msg }
func (e *cleanedError) Unwrap() error { return e.err }

// cleanError keeps what a package hid out of an error's message, as
// untrusted.Package keeps it out of answers.
func cleanError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := untrusted.Code(msg); clean != msg {
		return &cleanedError{msg: clean, err: err}
	}
	return err
}
