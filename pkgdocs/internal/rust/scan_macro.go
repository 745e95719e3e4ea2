package rust

import "strings"

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
