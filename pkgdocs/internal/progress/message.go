package progress

import (
	"fmt"
	"strconv"
	"strings"
)

// Message says in a few words where the answer is, from the stage and the
// counts alone:
//
//	resolving the version
//	fetching 340 kB of 1.2 MB (download 2)
//	reading 85 files
//	done: 1.4 MB fetched in 2 downloads, 85 files read
//
// While fetching, the counts are those of the download begun last, and
// its number when it is not the first.
func (u Update) Message() string {
	switch u.Stage {
	case Resolving:
		return "resolving the version"
	case Fetching:
		msg := "fetching " + formatBytes(u.Latest)
		if u.LatestSize > 0 {
			msg += " of " + formatBytes(u.LatestSize)
		}
		if u.Downloads > 1 {
			msg += fmt.Sprintf(" (download %d)", u.Downloads)
		}
		return msg
	case Reading:
		return "reading " + plural(u.Files, "file")
	case Done:
		var parts []string
		if u.Downloads > 0 {
			parts = append(parts, formatBytes(u.Bytes)+" fetched in "+plural(u.Downloads, "download"))
		}
		if u.Files > 0 {
			parts = append(parts, plural(u.Files, "file")+" read")
		}
		if len(parts) == 0 {
			return "done"
		}
		return "done: " + strings.Join(parts, ", ")
	}
	return ""
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// formatBytes writes n in decimal units: 512 B, 34 kB, 1.2 MB.
func formatBytes(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 999_500: // rounds below 1000 kB
		return scaled(n, 1000) + " kB"
	case n < 999_500_000:
		return scaled(n, 1000*1000) + " MB"
	}
	return scaled(n, 1000*1000*1000) + " GB"
}

// scaled divides n by unit, with one decimal below 10.
func scaled(n, unit int64) string {
	v := float64(n) / float64(unit)
	if v < 9.95 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
