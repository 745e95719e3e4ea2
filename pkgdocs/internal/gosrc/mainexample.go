package gosrc

import (
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// promoteMainExample puts the main usage example of a package first among
// its usage sections, so that an answer about the package shows it on page
// 1: the first section of the README (else of the package documentation)
// with Go code, preferring usage and example sections to the rest. A
// README's usage sections can be many (zerolog's "Getting Started" has a
// dozen subsections) and its first example was paged after them; the
// install sections a Go README opens with say what the answer's header
// already does.
func promoteMainExample(secs []model.Section, readmeFile string) []model.Section {
	pick := -1
	for _, fromReadme := range []bool{true, false} {
		for pass := 0; pass < 2 && pick < 0; pass++ {
			for i, s := range secs {
				if (s.File == readmeFile) != fromReadme || readmeFile == "" && fromReadme {
					continue
				}
				if pass == 0 && s.Priority > model.PriorityExamples {
					continue
				}
				if hasGoCode(s.Markdown, pass == 1) {
					pick = i
					break
				}
			}
		}
		if pick >= 0 {
			break
		}
	}
	if pick < 0 || secs[pick].Priority == model.PriorityOverview {
		return secs // none, or already in the overview at the head
	}
	main := secs[pick]
	main.Priority = model.PriorityUsage
	out := make([]model.Section, 0, len(secs))
	out = append(out, main)
	out = append(out, secs[:pick]...)
	return append(out, secs[pick+1:]...)
}

// shellLangs are the fence languages of commands, not usage examples.
var shellLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true, "zsh": true, "powershell": true, "cmd": true, "text": true, "txt": true, "bat": true}

// hasGoCode reports whether markdown holds a usage example: a code block
// (fenced, or indented as go/doc prints code) that is not shell commands
// nor import lines alone. With goOnly, the block must read as Go: a fence
// marked go or golang, or code with a Go statement; without it, any
// language but a shell's counts (go-json shows its use as an import diff).
func hasGoCode(markdown string, goOnly bool) bool {
	lines := strings.Split(markdown, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		var fence string
		switch {
		case strings.HasPrefix(l, "```"):
			fence = "```"
		case strings.HasPrefix(l, "~~~"):
			fence = "~~~"
		case strings.HasPrefix(lines[i], "\t") && (i == 0 || strings.TrimSpace(lines[i-1]) == ""):
			var block []string
			for ; i < len(lines) && (strings.HasPrefix(lines[i], "\t") || strings.TrimSpace(lines[i]) == ""); i++ {
				block = append(block, strings.TrimSpace(lines[i]))
			}
			if substantive(block) && (!goOnly || readsAsGo(block)) {
				return true
			}
			continue
		default:
			continue
		}
		lang := ""
		if f := strings.Fields(strings.TrimLeft(l, fence[:1])); len(f) > 0 {
			lang = strings.ToLower(f[0]) // "go title=main.go" is Go
		}
		var block []string
		for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), fence); i++ {
			block = append(block, strings.TrimSpace(lines[i]))
		}
		if shellLangs[lang] || !substantive(block) {
			continue
		}
		if lang == "go" || lang == "golang" || readsAsGo(block) || !goOnly && lang != "" || !goOnly && !commands(block) {
			return true
		}
	}
	return false
}

// substantive reports a code block with more than imports, a package
// clause, comments and shell commands.
func substantive(block []string) bool {
	for _, l := range block {
		switch {
		case l == "", l == "(", l == ")", strings.HasPrefix(l, "//"), strings.HasPrefix(l, "import"), strings.HasPrefix(l, "package "),
			strings.HasPrefix(l, `"`) && strings.HasSuffix(l, `"`), isCommand(l):
			continue
		}
		return true
	}
	return false
}

// readsAsGo reports a block with a line only Go code would hold.
func readsAsGo(block []string) bool {
	for _, l := range block {
		if strings.HasPrefix(l, "func ") || strings.Contains(l, ":= ") || strings.HasPrefix(l, "import (") || strings.HasPrefix(l, "defer ") || strings.HasPrefix(l, "if err != nil") {
			return true
		}
	}
	return false
}

// commands reports a block of shell commands only.
func commands(block []string) bool {
	for _, l := range block {
		if l != "" && !isCommand(l) {
			return false
		}
	}
	return true
}

func isCommand(l string) bool {
	for _, p := range []string{"$ ", "go get", "go install", "go mod", "go run", "go build", "git ", "brew ", "docker "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}
