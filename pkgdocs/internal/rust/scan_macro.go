package rust

import (
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// Limits on expanding the crate's own macro_rules! macros.
const (
	maxExpansions    = 200
	maxExpansionSize = 256 << 10
)

// macroDef is a macro_rules! macro of the crate: its arms, as token ranges
// of the module that defines it.
type macroDef struct {
	m    *module
	arms []macroArm
}

// macroArm is one `(matcher) => { transcriber }` arm: the tokens inside
// the matcher's and the transcriber's delimiters.
type macroArm struct {
	matcher, body [2]int
}

// defineMacro remembers a macro_rules! macro whose body runs from open to
// close, for item-position calls of it in the files scanned after it.
func (m *module) defineMacro(name string, open, close int) {
	def := &macroDef{m: m}
	for j := open + 1; j < close; j++ {
		if !strings.Contains("([{", m.toks[j].text) || m.toks[j].kind != tPunct {
			continue
		}
		pc := m.matching(j, close)
		if pc+3 < close && m.toks[pc+1].text == "=" && m.toks[pc+2].text == ">" && strings.Contains("([{", m.toks[pc+3].text) {
			bc := m.matching(pc+3, close)
			def.arms = append(def.arms, macroArm{matcher: [2]int{j + 1, pc}, body: [2]int{pc + 4, bc}})
			pc = bc
		}
		j = pc
	}
	if m.s.localMacros == nil {
		m.s.localMacros = map[string]*macroDef{}
	}
	m.s.localMacros[name] = def
}

// expandCall scans the expansion of an item-position call of one of the
// crate's macros (declare_error_trait!(Error: Sized + StdError);) as items
// of m, when an arm fits: one whose matcher is a comma-separated list of
// $name:fragment, with as many arguments; else the only arm, its
// repetitions left out. It reports whether it expanded the call.
func (m *module) expandCall(def *macroDef, open, close int, owner string) bool {
	if m.s.expansions >= maxExpansions || m.depth >= maxModuleDepth {
		return false
	}
	args := m.splitArgs(open+1, close)
	var arm *macroArm
	var bind map[string]string
	for i := range def.arms {
		params := def.m.simpleParams(def.arms[i].matcher)
		if params != nil && len(params) == len(args) {
			arm, bind = &def.arms[i], map[string]string{}
			for k, p := range params {
				bind[p] = args[k]
			}
			break
		}
	}
	if arm == nil && len(def.arms) == 1 {
		arm = &def.arms[0]
	}
	if arm == nil {
		return false
	}
	text, ok := def.m.transcribe(arm.body, bind)
	if !ok {
		return false
	}
	m.s.expansions++
	sub := &module{s: m.s, file: m.file, src: text, toks: lex(text), prefix: m.prefix, depth: m.depth + 1, parent: m.parent, private: m.private, public: m.public, modules: m.modules}
	sub.items(0, len(sub.toks), owner)
	sub.resolveReexports()
	return true
}

// splitArgs returns the source of the comma-separated arguments in
// tokens [i, end), a trailing comma allowed.
func (m *module) splitArgs(i, end int) []string {
	var out []string
	start := i
	for k := i; k <= end; k++ {
		if k < end {
			switch m.toks[k].text {
			case "(", "[", "{":
				k = m.matching(k, end)
				continue
			case ",":
			default:
				continue
			}
		}
		if a := strings.TrimSpace(m.text(start, k)); a != "" || k < end {
			out = append(out, a)
		}
		start = k + 1
	}
	return out
}

// simpleParams returns the names of a matcher of the form
// $a:frag, $b:frag (a trailing comma allowed), or nil.
func (m *module) simpleParams(r [2]int) []string {
	var names []string
	for j := r[0]; j < r[1]; {
		if j+3 >= r[1]+1 || m.toks[j].text != "$" || m.toks[j+1].kind != tIdent || m.toks[j+2].text != ":" || m.toks[j+3].kind != tIdent {
			return nil
		}
		names = append(names, m.toks[j+1].text)
		j += 4
		if j < r[1] {
			if m.toks[j].text != "," {
				return nil
			}
			j++
		}
	}
	return names
}

// transcribe renders a transcriber's tokens as source: $name replaced by
// its argument, $crate by crate, $( ... ) repetitions left out. It fails
// on a variable without a value.
func (m *module) transcribe(r [2]int, bind map[string]string) (string, bool) {
	var b strings.Builder
	for j := r[0]; j < r[1]; j++ {
		t := m.toks[j]
		if b.Len() > maxExpansionSize {
			return "", false
		}
		switch {
		case t.kind == tDocOuter:
			b.WriteString("\n///" + t.text + "\n")
			continue
		case t.kind == tDocInner:
			continue
		case t.text == "$" && j+1 < r[1] && m.toks[j+1].text == "(":
			j = m.matching(j+1, r[1])
			if j+1 < r[1] && !strings.Contains("*+?", m.toks[j+1].text) {
				j++ // a separator
			}
			if j+1 < r[1] && strings.Contains("*+?", m.toks[j+1].text) {
				j++
			}
			continue
		case t.text == "$" && j+1 < r[1] && m.toks[j+1].kind == tIdent:
			j++
			v, ok := bind[m.toks[j].text]
			if m.toks[j].text == "crate" {
				v, ok = "crate", true
			}
			if !ok {
				return "", false
			}
			if t.space {
				b.WriteByte(' ')
			}
			b.WriteString(v)
			continue
		}
		if t.space {
			b.WriteByte(' ')
		}
		b.WriteString(m.src[t.start:t.end])
	}
	return b.String(), true
}

// macroCall returns the index of the '!' of an item-position macro call
// with a { body } starting at k (cfg_rt! {, cfg_if::cfg_if! {), or -1.
func (m *module) macroCall(k, end int) int {
	j := k
	for j+2 < end && m.toks[j].kind == tIdent && m.toks[j+1].text == ":" && m.toks[j+2].text == ":" {
		j += 3 // a path: cfg_if::cfg_if!
	}
	if j+2 < end && m.toks[j].kind == tIdent && m.toks[j+1].text == "!" && m.toks[j+2].text == "{" {
		return j + 1
	}
	return -1
}

// macroItems scans the { body } opening at open of an item-position macro
// call as items, as cfg_*! wrappers hold them; a cfg_if! body (if
// #[cfg(..)] { items } else { items }) has every branch scanned, as cfg is
// not evaluated. It returns the index after the body.
func (m *module) macroItems(open, end int, owner string) int {
	close := m.matching(open, end)
	if open+1 < close && m.toks[open+1].text == "if" {
		for j := open + 1; j < close; j++ {
			switch m.toks[j].text {
			case "{":
				inner := m.matching(j, close)
				m.items(j+1, inner, owner)
				j = inner
			case "[", "(":
				j = m.matching(j, close) // the #[cfg(..)] condition
			}
		}
		return close + 1
	}
	m.items(open+1, close, owner) // cfg_rt! { pub mod runtime; }
	return close + 1
}

// procMacro lists a procedural macro by the name users write: a derive
// macro by its derive name (thiserror-impl's derive_error is `Error`), an
// attribute or function-like macro by its function's name.
func (m *module) procMacro(h *itemHead, fn, sig string) {
	kind, name := "macro", fn
	switch {
	case h.procMacro == "proc_macro_attribute":
		kind = "attribute macro"
	case strings.HasPrefix(h.procMacro, "proc_macro_derive"):
		kind = "derive macro"
		args := strings.TrimSuffix(strings.TrimPrefix(h.procMacro[len("proc_macro_derive"):], "("), ")")
		name = strings.TrimSpace(strings.Split(args, ",")[0])
		if name == "" {
			return
		}
	}
	m.s.add(model.Symbol{Name: m.prefix + name, Kind: kind, Signature: "#[" + h.procMacro + "]\n" + sig, Doc: strings.TrimSpace(strings.Join(h.docs, "\n")), File: m.file})
}

// macro records an exported macro_rules! macro with its arm patterns.
func (m *module) macro(k, end int, h *itemHead) int {
	if k+3 >= end || m.toks[k+1].text != "!" || m.toks[k+2].kind != tIdent {
		return m.skipItem(k, end)
	}
	name := m.toks[k+2].text
	open := k + 3
	if m.toks[open].text != "{" && m.toks[open].text != "(" && m.toks[open].text != "[" {
		return m.skipItem(k, end)
	}
	close := m.matching(open, end)
	next := close + 1
	if next < end && m.toks[next].text == ";" {
		next++
	}
	if !h.test {
		m.defineMacro(name, open, close)
	}
	if !h.macroExport || h.hidden || h.test {
		return next
	}
	var arms []string
	for j := open + 1; j < close; j++ {
		t := m.toks[j]
		if t.kind != tPunct || (t.text != "(" && t.text != "[" && t.text != "{") {
			continue
		}
		pc := m.matching(j, close)
		if pc+2 < close && m.toks[pc+1].text == "=" && m.toks[pc+2].text == ">" {
			arms = append(arms, "    "+m.text(j, pc+1)+" => { … };")
			if pc+3 < close && strings.Contains("([{", m.toks[pc+3].text) {
				pc = m.matching(pc+3, close)
			}
		}
		j = pc
	}
	sig := "macro_rules! " + name + " {\n" + strings.Join(arms, "\n") + "\n}"
	m.s.addMacro(model.Symbol{Name: name, Kind: "macro", Signature: sig, Doc: strings.TrimSpace(strings.Join(h.docs, "\n")), File: m.file})
	return next
}
