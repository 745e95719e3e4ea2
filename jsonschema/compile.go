package jsonschema

import (
	"encoding/json"
	"fmt"
	"math"
)

// propIndexMin is the number of properties from which lookups use a map.
const propIndexMin = 9

// compile fills in the keywords of n and compiles what it refers to.
func (r *resolver) compile(n *node) error {
	if n.state != 0 {
		return nil
	}
	n.state = 1
	s := n.schema
	if s.boolean == boolFalse {
		if !isEmptyFalse(s) {
			return errFalseWithKeywords
		}
		n.always = -1
		return nil
	}
	n.minLength, n.maxLength = -1, -1
	n.dflt = s.Default
	if len(n.dflt) > 0 && !json.Valid(n.dflt) {
		return fmt.Errorf("jsonschema: schema %s: default is not valid JSON", n.absLocation())
	}
	if err := r.compileResource(n); err != nil {
		return err
	}
	d := n.dialect
	if s.Ref != "" {
		target, err := r.ref(n, s.Ref)
		if err != nil {
			return err
		}
		n.ref = target
		r.refs = append(r.refs, n)
		if d.draft == draft7 {
			return nil // draft-07 ignores the siblings of $ref
		}
	}
	if s.DynamicRef != "" && d.draft == draft2020 {
		if err := r.compileDynamicRef(n, s.DynamicRef); err != nil {
			return err
		}
	}
	if err := r.compileKeywords(n, s); err != nil {
		return fmt.Errorf("jsonschema: schema %s: %w", n.absLocation(), err)
	}
	n.finish()
	return nil
}

func (r *resolver) compileKeywords(n *node, s *Schema) error {
	if err := r.compileValidation(n, s); err != nil {
		return err
	}
	if err := r.compileArray(n, s); err != nil {
		return err
	}
	if err := r.compileObject(n, s); err != nil {
		return err
	}
	if err := r.compileApplicators(n, s); err != nil {
		return err
	}
	return r.compileFormat(n, s)
}

// compileResource makes sure the dynamic anchors of n's resource are
// compiled, since a $dynamicRef may jump to them.
func (r *resolver) compileResource(n *node) error {
	for _, a := range n.res.dynAnchors {
		if err := r.compile(a); err != nil {
			return err
		}
	}
	return nil
}

func isEmptyFalse(s *Schema) bool { return !s.hasKeywords() }

// ref resolves and compiles a $ref from n.
func (r *resolver) ref(n *node, ref string) (*node, error) {
	doc, frag, err := resolveURI(n.res.uri, ref)
	if err != nil {
		return nil, err
	}
	target, err := r.lookup(doc, frag)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: $ref %q at %s: %w", ref, n.absLocation(), err)
	}
	if err := r.compile(target); err != nil {
		return nil, err
	}
	return target, nil
}

func (r *resolver) compileDynamicRef(n *node, ref string) error {
	doc, frag, err := resolveURI(n.res.uri, ref)
	if err != nil {
		return err
	}
	target, err := r.lookup(doc, frag)
	if err != nil {
		return fmt.Errorf("jsonschema: $dynamicRef %q at %s: %w", ref, n.absLocation(), err)
	}
	if err := r.compile(target); err != nil {
		return err
	}
	dr := &dynRef{static: target}
	// The reference is dynamic only if its initial target has a
	// $dynamicAnchor with the same name as the fragment.
	if frag != "" && frag[0] != '/' && target.schema.DynamicAnchor == frag {
		dr.anchor, dr.dynamic = frag, true
		r.dynamic = true
	}
	n.dynRef = dr
	r.refs = append(r.refs, n)
	return nil
}

// compileValidation compiles the validation vocabulary's keywords for any
// type, numbers and strings.
func (r *resolver) compileValidation(n *node, s *Schema) error {
	if n.dialect.vocab&vocabValidation == 0 {
		return nil
	}
	types := s.Types
	if len(types) == 0 && s.Type != "" {
		types = []string{s.Type}
	}
	for _, name := range types {
		bit := typeBit(name)
		if bit == 0 {
			return fmt.Errorf("unknown type %q", name)
		}
		n.types |= bit
	}
	if s.Enum != nil {
		vs, err := newValueSet(s.Enum)
		if err != nil {
			return fmt.Errorf("enum: %w", err)
		}
		n.enum = vs
	}
	if s.Const != nil {
		vs, err := newValueSet([]any{*s.Const})
		if err != nil {
			return fmt.Errorf("const: %w", err)
		}
		n.constv = vs
	}
	if err := n.compileNumbers(s); err != nil {
		return err
	}
	n.minLength = intOr(s.MinLength, -1)
	n.maxLength = intOr(s.MaxLength, -1)
	if s.Pattern != "" {
		re, err := compilePattern(s.Pattern)
		if err != nil {
			return fmt.Errorf("pattern: %w", err)
		}
		n.pattern = re
	}
	return nil
}

func (n *node) compileNumbers(s *Schema) error {
	limits := [...]struct {
		name string
		v    *float64
		dst  **numLimit
	}{
		litNumMultipleOf:       {"multipleOf", s.MultipleOf, &n.multipleOf},
		litNumMinimum:          {"minimum", s.Minimum, &n.minimum},
		litNumMaximum:          {"maximum", s.Maximum, &n.maximum},
		litNumExclusiveMinimum: {"exclusiveMinimum", s.ExclusiveMinimum, &n.exclusiveMinimum},
		litNumExclusiveMaximum: {"exclusiveMaximum", s.ExclusiveMaximum, &n.exclusiveMaximum},
	}
	for which, l := range limits {
		if l.v == nil {
			continue
		}
		if math.IsNaN(*l.v) || math.IsInf(*l.v, 0) {
			return fmt.Errorf("%s: %v is not a number", l.name, *l.v)
		}
		*l.dst = newNumLimit(*l.v, s.numLiteral(which, l.v))
	}
	if n.multipleOf != nil && n.multipleOf.f <= 0 {
		return fmt.Errorf("multipleOf must be greater than 0")
	}
	return nil
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// compileArray compiles the keywords for arrays.
func (r *resolver) compileArray(n *node, s *Schema) error {
	d := n.dialect
	a := arrayKw{minItems: -1, maxItems: -1, minContains: 1, maxContains: -1}
	if d.vocab&vocabValidation != 0 {
		a.minItems = intOr(s.MinItems, -1)
		a.maxItems = intOr(s.MaxItems, -1)
		a.uniqueItems = s.UniqueItems
		if d.draft >= draft2019 {
			a.minContains = intOr(s.MinContains, 1)
			a.maxContains = intOr(s.MaxContains, -1)
		}
	}
	var err error
	if d.vocab&vocabApplicator != 0 {
		switch {
		case d.draft == draft2020:
			if s.ItemsArray != nil {
				return fmt.Errorf("items must be a schema in draft 2020-12 (use prefixItems for an array)")
			}
			a.prefixKw, a.itemsKw = "prefixItems", "items"
			if a.prefix, err = r.compileList(s.PrefixItems); err != nil {
				return err
			}
			if a.items, err = r.compileSub(s.Items); err != nil {
				return err
			}
		case s.ItemsArray != nil:
			a.prefixKw, a.itemsKw = "items", "additionalItems"
			if a.prefix, err = r.compileList(s.ItemsArray); err != nil {
				return err
			}
			if a.items, err = r.compileSub(s.AdditionalItems); err != nil {
				return err
			}
		default:
			a.itemsKw = "items"
			if a.items, err = r.compileSub(s.Items); err != nil {
				return err
			}
		}
		if a.contains, err = r.compileSub(s.Contains); err != nil {
			return err
		}
	}
	if d.vocab&vocabUnevaluated != 0 && d.draft >= draft2019 {
		if a.unevalItems, err = r.compileSub(s.UnevaluatedItems); err != nil {
			return err
		}
	}
	if a.minItems >= 0 || a.maxItems >= 0 || a.uniqueItems || a.prefix != nil || a.items != nil ||
		a.contains != nil || a.unevalItems != nil {
		n.arrayKw = new(arrayKw)
		*n.arrayKw = a
	}
	return nil
}

// compileObject compiles the keywords for objects.
func (r *resolver) compileObject(n *node, s *Schema) error {
	d := n.dialect
	o := objectKw{minProps: -1, maxProps: -1}
	if d.vocab&vocabValidation != 0 {
		o.minProps = intOr(s.MinProperties, -1)
		o.maxProps = intOr(s.MaxProperties, -1)
		o.required = s.Required
		if d.draft >= draft2019 && len(s.DependentRequired) > 0 {
			for _, name := range sortedKeys(s.DependentRequired) {
				o.depRequired = append(o.depRequired, depRequired{name, "dependentRequired", s.DependentRequired[name]})
			}
		}
		if len(s.DependencyStrings) > 0 {
			for _, name := range sortedKeys(s.DependencyStrings) {
				o.depRequired = append(o.depRequired, depRequired{name, "dependencies", s.DependencyStrings[name]})
			}
		}
	}
	if d.vocab&vocabApplicator != 0 {
		if err := r.compileMembers(&o, n.dialect, s); err != nil {
			return err
		}
	}
	if d.vocab&vocabUnevaluated != 0 && d.draft >= draft2019 {
		var err error
		if o.unevalProps, err = r.compileSub(s.UnevaluatedProperties); err != nil {
			return err
		}
	}
	if o.minProps >= 0 || o.maxProps >= 0 || len(o.required) > 0 || o.depRequired != nil || o.props != nil ||
		o.patProps != nil || o.addProps != nil || o.propNames != nil || o.depSchemas != nil || o.unevalProps != nil {
		if len(o.required) > 0 && o.props != nil {
			o.reqProp = make([]int32, len(o.required))
			for k, name := range o.required {
				o.reqProp[k] = int32(o.findProp([]byte(name)))
			}
		}
		n.objectKw = new(objectKw)
		*n.objectKw = o
	}
	return nil
}

func (r *resolver) compileMembers(o *objectKw, d *dialect, s *Schema) error {
	if len(s.Properties) > 0 {
		names := s.PropertyOrder
		if !completeOrder(s) {
			names = s.propertyNames()
		}
		o.props = make([]propNode, 0, len(names))
		for _, name := range names {
			c, err := r.compileSub(s.Properties[name])
			if err != nil {
				return err
			}
			if c == nil {
				c = trueNode
			}
			o.props = append(o.props, propNode{name, c})
		}
		if len(o.props) >= propIndexMin {
			o.propIndex = make(map[string]int, len(o.props))
			for i, p := range o.props {
				o.propIndex[p.name] = i
			}
		} else {
			o.propSig = make([]uint32, len(o.props))
			for i, p := range o.props {
				o.propSig[i] = propSignature(p.name)
			}
		}
	}
	for _, src := range sortedKeys(s.PatternProperties) {
		re, err := compilePattern(src)
		if err != nil {
			return fmt.Errorf("patternProperties: %w", err)
		}
		c, err := r.compileSub(s.PatternProperties[src])
		if err != nil {
			return err
		}
		if c == nil {
			c = trueNode
		}
		o.patProps = append(o.patProps, patNode{src, re, c})
	}
	var err error
	if o.addProps, err = r.compileSub(s.AdditionalProperties); err != nil {
		return err
	}
	if o.propNames, err = r.compileSub(s.PropertyNames); err != nil {
		return err
	}
	if d.draft >= draft2019 {
		for _, name := range sortedKeys(s.DependentSchemas) {
			c, err := r.compileSub(s.DependentSchemas[name])
			if err != nil {
				return err
			}
			if c == nil {
				c = trueNode
			}
			o.depSchemas = append(o.depSchemas, depSchema{name, "dependentSchemas", c})
		}
	}
	for _, name := range sortedKeys(s.DependencySchemas) {
		c, err := r.compileSub(s.DependencySchemas[name])
		if err != nil {
			return err
		}
		if c == nil {
			c = trueNode
		}
		o.depSchemas = append(o.depSchemas, depSchema{name, "dependencies", c})
	}
	return nil
}

// completeOrder reports whether s.PropertyOrder lists each property once.
func completeOrder(s *Schema) bool {
	if len(s.PropertyOrder) != len(s.Properties) {
		return false
	}
	for i, name := range s.PropertyOrder {
		if _, ok := s.Properties[name]; !ok {
			return false
		}
		for _, prev := range s.PropertyOrder[:i] {
			if prev == name {
				return false
			}
		}
	}
	return true
}

// compileApplicators compiles allOf, anyOf, oneOf, not and if/then/else.
func (r *resolver) compileApplicators(n *node, s *Schema) error {
	if n.dialect.vocab&vocabApplicator == 0 ||
		(len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.Not == nil && s.If == nil) {
		return nil
	}
	a := &applicatorKw{}
	var err error
	if a.allOf, err = r.compileList(s.AllOf); err != nil {
		return err
	}
	if a.anyOf, err = r.compileList(s.AnyOf); err != nil {
		return err
	}
	if a.oneOf, err = r.compileList(s.OneOf); err != nil {
		return err
	}
	if a.not, err = r.compileSub(s.Not); err != nil {
		return err
	}
	if s.If != nil {
		if a.ifn, err = r.compileSub(s.If); err != nil {
			return err
		}
		if a.then, err = r.compileSub(s.Then); err != nil {
			return err
		}
		if a.elseN, err = r.compileSub(s.Else); err != nil {
			return err
		}
	}
	n.applicatorKw = a
	return nil
}

// compileFormat sets up format assertion when it is enabled.
func (r *resolver) compileFormat(n *node, s *Schema) error {
	if r.opts.AssertContent {
		n.contentCheck = contentCheck(s.ContentEncoding, s.ContentMediaType)
	}
	if s.Format == "" {
		return nil
	}
	n.format = s.Format
	d := n.dialect
	assert := d.vocab&vocabFormatAssertion != 0 ||
		(r.opts.AssertFormat && d.vocab&(vocabFormatAnnotation|vocabFormatAssertion) != 0)
	if assert {
		n.formatCheck = formats[s.Format] // unknown formats are ignored
	}
	return nil
}

// trueNode stands for nil entries in maps and lists of schemas, which mean
// the schema true.
var trueNode = &node{always: 1, idx: -1}

// compileSub compiles a subschema that walk indexed.
func (r *resolver) compileSub(s *Schema) (*node, error) {
	if s == nil {
		return nil, nil
	}
	n, ok := r.nodes[s]
	if !ok {
		return nil, fmt.Errorf("jsonschema: internal error: subschema not indexed")
	}
	if err := r.compile(n); err != nil {
		return nil, err
	}
	return n, nil
}

func (r *resolver) compileList(list []*Schema) ([]*node, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make([]*node, len(list))
	for i, s := range list {
		if s == nil {
			out[i] = trueNode
			continue
		}
		c, err := r.compileSub(s)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// finish computes the summary fields of a compiled node.
func (n *node) finish() {
	if n.multipleOf != nil || n.minimum != nil || n.maximum != nil ||
		n.exclusiveMinimum != nil || n.exclusiveMaximum != nil {
		n.checks |= chkNumber
	}
	if n.minLength >= 0 || n.maxLength >= 0 || n.pattern != nil || n.formatCheck != nil || n.contentCheck != nil {
		n.checks |= chkString
	}
	if n.arrayKw != nil {
		n.checks |= chkArray
		n.needEval = n.unevalItems != nil
	}
	if o := n.objectKw; o != nil {
		n.checks |= chkObject
		if o.props != nil || o.patProps != nil || o.addProps != nil || o.propNames != nil || o.unevalProps != nil {
			n.checks |= chkMembers
		}
		n.needEval = n.needEval || o.unevalProps != nil
	}
	if n.applicatorKw != nil {
		n.checks |= chkApplicators
	}
	if n.checks == 0 && n.types == 0 && n.enum == nil && n.constv == nil && n.ref == nil && n.dynRef == nil {
		n.always = 1
	}
	n.leaf = n.ref == nil && n.dynRef == nil && !n.needEval &&
		n.checks&(chkArray|chkObject|chkApplicators) == 0
}
