package jsonschema

// node is a compiled schema. Resolve builds one per schema it indexes and
// fills in the keywords of those reachable from the root. Nodes are
// immutable once Resolve returns.
type node struct {
	// Where the schema is.
	schema  *Schema
	parent  *node
	kw      string // keyword leading from parent to this schema
	key     string // member name under kw, if any
	idx     int32  // array index under kw, or -1
	res     *resource
	dialect *dialect

	state uint8 // compile state: 0 new, 1 compiling or compiled

	// always is +1 for a schema that accepts everything without producing
	// annotations (true, {}), -1 for false, 0 otherwise.
	always int8
	// checks says which groups of keywords are present.
	checks uint16
	// needEval: the schema has unevaluatedProperties or unevaluatedItems,
	// so evaluation must track which members or elements were evaluated.
	needEval bool
	// leaf: the schema has only keywords that look at the instance alone
	// (type, enum, const, and those for numbers and strings).
	leaf bool

	types  typeSet
	enum   *valueSet
	constv *valueSet

	multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum *numLimit

	minLength, maxLength int // -1 when absent
	pattern              *pattern
	format               string
	formatCheck          func(string) bool // nil unless format is asserted
	contentCheck         func(string) bool // nil unless content is asserted

	ref    *node
	dynRef *dynRef

	// dflt is the schema's default value as JSON, for ApplyDefaults.
	dflt []byte

	// The keywords for arrays, objects and the in-place applicators are
	// allocated only for schemas that have some.
	*arrayKw
	*objectKw
	*applicatorKw
}

// arrayKw holds the compiled keywords for arrays.
type arrayKw struct {
	minItems, maxItems       int // -1 when absent
	uniqueItems              bool
	prefixKw                 string // "prefixItems", or "items" (array form)
	prefix                   []*node
	itemsKw                  string // "items", or "additionalItems"
	items                    *node  // applies to elements after prefix
	contains                 *node
	minContains, maxContains int // minContains defaults to 1; -1 when absent
	unevalItems              *node
}

// objectKw holds the compiled keywords for objects.
type objectKw struct {
	minProps, maxProps int // -1 when absent
	required           []string
	depRequired        []depRequired
	props              []propNode
	propSig            []uint32       // propSignature of each property name
	propIndex          map[string]int // for schemas with many properties
	reqProp            []int32        // for each required name, its index in props, or -1
	patProps           []patNode
	addProps           *node
	propNames          *node
	depSchemas         []depSchema
	unevalProps        *node
}

// applicatorKw holds allOf, anyOf, oneOf, not and if/then/else.
type applicatorKw struct {
	allOf, anyOf, oneOf   []*node
	not, ifn, then, elseN *node
}

// checks bits.
const (
	chkNumber uint16 = 1 << iota
	chkString
	chkArray
	chkObject
	chkApplicators // allOf, anyOf, oneOf, not, if
	chkMembers     // properties, patternProperties, additionalProperties, propertyNames or unevaluatedProperties
)

type propNode struct {
	name string
	n    *node
}

type patNode struct {
	src string
	re  *pattern
	n   *node
}

type depRequired struct {
	name     string
	kw       string // "dependentRequired" or "dependencies"
	required []string
}

type depSchema struct {
	name string
	kw   string // "dependentSchemas" or "dependencies"
	n    *node
}

// dynRef is a compiled $dynamicRef.
type dynRef struct {
	static  *node  // the initially resolved target
	anchor  string // dynamic anchor name, if the reference is dynamic
	dynamic bool
}

// typeSet is a set of JSON Schema types.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeObject
	typeArray
	typeNumber
	typeString
	typeInteger
)

var typeNames = []struct {
	name string
	bit  typeSet
}{
	{"null", typeNull},
	{"boolean", typeBoolean},
	{"object", typeObject},
	{"array", typeArray},
	{"number", typeNumber},
	{"string", typeString},
	{"integer", typeInteger},
}

func typeBit(name string) typeSet {
	for _, t := range typeNames {
		if t.name == name {
			return t.bit
		}
	}
	return 0
}

// kindNames are the JSON type names of tape kinds, for messages.
var kindNames = [...]string{
	kindNull:   "null",
	kindFalse:  "boolean",
	kindTrue:   "boolean",
	kindNumber: "number",
	kindString: "string",
	kindArray:  "array",
	kindObject: "object",
}

var kindTypes = [...]typeSet{
	kindNull:   typeNull,
	kindFalse:  typeBoolean,
	kindTrue:   typeBoolean,
	kindNumber: typeNumber,
	kindString: typeString,
	kindArray:  typeArray,
	kindObject: typeObject,
}
