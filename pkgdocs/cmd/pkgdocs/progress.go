package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/progress"
)

// withProgress returns ctx carrying a reporter that shows a cold answer's
// progress on stderr, and the function that ends it. mode is the
// --progress flag: "auto" shows it when stderr is a terminal, as a status
// line rewritten in place and erased at the end; "on" shows it whatever
// stderr is, one line per update when it is not a terminal; "off" never.
// Tests and pipes, which are not terminals, stay quiet by default.
func withProgress(ctx context.Context, mode string, stderr io.Writer) (context.Context, func(), error) {
	tty := isTerminal(stderr)
	switch mode {
	case "auto":
		if !tty {
			return ctx, func() {}, nil
		}
	case "on":
	case "off":
		return ctx, func() {}, nil
	default:
		return ctx, nil, fmt.Errorf("--progress %q: want auto, on or off", mode)
	}
	var show func(progress.Update)
	if tty {
		show = (&statusLine{w: stderr}).show
	} else {
		show = func(u progress.Update) { fmt.Fprintf(stderr, "pkgdocs: %s\n", u.Message()) }
	}
	r := progress.New(show, nil)
	return progress.NewContext(ctx, r), r.Finish, nil
}

// statusLine is one line of a terminal, rewritten with each update and
// erased by the last, so that what follows starts on a clean line.
// Carriage returns and spaces do it, no escape sequences, so any console
// shows it.
type statusLine struct {
	w     io.Writer
	width int // of the line shown
}

func (s *statusLine) show(u progress.Update) {
	line := ""
	if u.Stage != progress.Done {
		line = "pkgdocs: " + u.Message()
	}
	pad := max(s.width-len(line), 0)
	fmt.Fprintf(s.w, "\r%s%s", line, strings.Repeat(" ", pad))
	if line == "" {
		fmt.Fprint(s.w, "\r")
	}
	s.width = len(line)
}

// isTerminal reports whether w is a terminal: a character device other
// than the null device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}
