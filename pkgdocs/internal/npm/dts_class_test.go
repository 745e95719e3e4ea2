package npm

import (
	"strings"
	"testing"
)

// scanFiles scans index.d.ts of files and returns its symbols by name.
func scanFiles(files map[string]string) map[string]string {
	syms := (&Scanner{Read: func(n string) ([]byte, bool) { b, ok := files[n]; return []byte(b), ok }, DefaultName: "pkg"}).Scan("index.d.ts")
	out := map[string]string{}
	for _, s := range syms {
		out[s.Kind+" "+s.Name] = s.Signature
	}
	return out
}

func TestScannerDeclarationShapes(t *testing.T) {
	for _, tt := range declarationShapes {
		t.Run(tt.name, func(t *testing.T) {
			syms := scanFiles(tt.files)
			sig, ok := syms[tt.sym]
			if !ok {
				var names []string
				for n := range syms {
					names = append(names, n)
				}
				t.Fatalf("no %s among %q", tt.sym, names)
			}
			for _, h := range tt.has {
				if !strings.Contains(sig, h) {
					t.Errorf("signature lacks %q:\n%s", h, sig)
				}
			}
			for _, l := range tt.lacks {
				if strings.Contains(sig, l) {
					t.Errorf("signature holds %q:\n%s", l, sig)
				}
			}
		})
	}
}

// declarationShapes lists declaration files, a symbol the scanner finds in
// them, and what its signature must and must not hold.
var declarationShapes = []struct {
	name  string
	files map[string]string
	sym   string   // kind and name of the symbol looked at
	has   []string // what its signature holds
	lacks []string // what it must not hold
}{{
	name: "a class shows its constructor overloads and whole generics",
	files: map[string]string{"index.d.ts": `export declare class Redis<R extends Mode = "legacy"> extends Commander<{
    type: "default";
}> implements Handled {
    constructor(port: number, host: string);
    constructor(options: Options);
    constructor();
    connect(): Promise<void>;
}`},
	sym: "class Redis",
	has: []string{`class Redis<R extends Mode = "legacy"> extends Commander<{`, `type: "default";`, "implements Handled {",
		"    constructor(port: number, host: string);\n    constructor(options: Options);\n    constructor();"},
	lacks: []string{"connect("},
}, {
	name: "a client without a constructor shows the one it inherits, across files",
	files: map[string]string{
		"index.d.ts": "import { Base } from './base.js';\nexport declare class Client extends Base<Opts> implements X {\n  messages: Messages;\n}",
		"base.d.ts":  "export declare class Base<T> {\n  constructor({ apiKey, ...opts }?: T);\n}",
	},
	sym: "class Client",
	has: []string{"class Client extends Base<Opts> implements X {", "// constructor inherited from Base", "constructor({ apiKey, ...opts }?: T);"},
}, {
	name:  "a class without constructors keeps its header",
	files: map[string]string{"index.d.ts": "export declare class Plain<T = {}> { x: T }"},
	sym:   "class Plain",
	has:   []string{"class Plain<T = {}> { … }"},
}, {
	name:  "statements without semicolons end where the next declaration starts",
	files: map[string]string{"index.d.ts": "export = f;\ndeclare function f (a?: string): f.D\n\ndeclare function f (a?: string, b?: number): f.D\n\ndeclare namespace f {\n  class D {\n    format(t?: string): string\n  }\n}\n"},
	sym:   "function pkg",
	has:   []string{"function f (a?: string): f.D\nfunction f (a?: string, b?: number): f.D"},
	lacks: []string{"namespace", "declare function"},
}, {
	name:  "the merged namespace's class members are found",
	files: map[string]string{"index.d.ts": "export = f;\ndeclare function f (a?: string): f.D\n\ndeclare namespace f {\n  class D {\n    format(t?: string): string\n  }\n}\n"},
	sym:   "method pkg.D.format",
	has:   []string{"format(t?: string): string"},
}, {
	name: "names imported from an export= namespace are its members",
	files: map[string]string{
		"index.d.ts": "export type { Argv, Options } from './main.js';\ndeclare const factory: () => void;\nexport default factory;",
		"main.d.ts":  "declare namespace yargs {\n  interface Argv<T = {}> {\n    command(cmd: string, desc: string): Argv<T>;\n  }\n  interface Hidden {}\n}\nexport = yargs;",
	},
	sym: "method Argv.command",
	has: []string{"command(cmd: string, desc: string): Argv<T>"},
}, {
	name:  "a const typed by a class is documented as the class",
	files: map[string]string{"index.d.ts": "declare class Server<T = X> extends EventEmitter {\n  constructor(options?: Options, cb?: () => void);\n  close(): void;\n}\nexport { type Server };\nexport const WebSocketServer: typeof Server;\nexport interface WebSocketServer extends Server {}\n"},
	sym:   "class WebSocketServer",
	has:   []string{"const WebSocketServer: typeof Server", "class Server<T = X> extends EventEmitter {", "constructor(options?: Options, cb?: () => void);"},
}, {
	name:  "an interface extending a class of the package gets its members",
	files: map[string]string{"index.d.ts": "declare class Server {\n  close(cb?: () => void): void;\n}\nexport const WebSocketServer: typeof Server;\nexport interface WebSocketServer extends Server {}\n"},
	sym:   "method WebSocketServer.close",
	has:   []string{"close(cb?: () => void): void"},
}, {
	name: "a const typed by an imported function is documented as the function",
	files: map[string]string{
		"index.d.ts":      "import { computed as computed$1 } from './reactivity.js';\nexport declare const computed: typeof computed$1;\n",
		"reactivity.d.ts": "/** Takes a getter. */\nexport declare function computed<T>(getter: () => T): ComputedRef<T>;\n",
	},
	sym: "function computed",
	has: []string{"function computed<T>(getter: () => T): ComputedRef<T>"},
}, {
	name: "a namespace exports names its file imports (SDK resources)",
	files: map[string]string{
		"index.d.ts":    "import { Messages } from './messages.js';\nexport declare class Client {\n  messages: Messages;\n}\nexport declare namespace Client {\n  export { Messages as Messages };\n}\n",
		"messages.d.ts": "export declare class Messages {\n  create(params: Params): Promise<Message>;\n}\n",
	},
	sym: "method Client.Messages.create",
	has: []string{"create(params: Params): Promise<Message>"},
}, {
	name: "an ambient module declared again merges with the first",
	files: map[string]string{
		"index.d.ts":  "/// <reference path=\"./models.d.ts\" />\ndeclare module 'mongoose' {\n  export function model(name: string): Model;\n}\n",
		"models.d.ts": "declare module 'mongoose' {\n  export interface Model {\n    find(filter?: Filter): Query;\n  }\n}\n",
	},
	sym: "method mongoose.Model.find",
	has: []string{"find(filter?: Filter): Query"},
}, {
	name:  "a subclass finds the members of its base class; continuation lines are re-indented",
	files: map[string]string{"index.d.ts": "declare class ClientBase {\n    query<R>(\n            text: string,\n            values?: unknown[],\n        ): Promise<R>;\n}\nexport declare class Client extends ClientBase {\n    constructor(config?: string);\n}\n"},
	sym:   "method Client.query",
	has:   []string{"query<R>(\n    text: string,\n    values?: unknown[],\n): Promise<R>"},
}, {
	name:  "a long generic function is shown whole",
	files: map[string]string{"index.d.ts": "export declare function define<\n" + strings.Repeat("  P extends string = string,\n", 40) + "  Last = never\n>(options: P): Component<Last>;\n"},
	sym:   "function define",
	has:   []string{"  Last = never\n>(options: P): Component<Last>"},
	lacks: []string{"// …"},
}, {
	name: "members come through default imports of base classes and interfaces (ioredis's Redis.set)",
	files: map[string]string{
		"index.d.ts":                "import Commander from './utils/Commander';\nexport declare class Redis extends Commander<{ type: 'default' }> {\n  constructor();\n}\n",
		"utils/Commander.d.ts":      "import RedisCommander from './RedisCommander';\ndeclare class Commander<C> {\n  sendCommand(c: unknown): unknown;\n}\ninterface Commander<C> extends RedisCommander<C> {\n}\nexport default Commander;\n",
		"utils/RedisCommander.d.ts": "interface RedisCommander<C> {\n  set(key: string, value: string, nx: 'NX'): R;\n  set(key: string, value: string, callback?: Callback<'OK'>): R;\n}\nexport default RedisCommander;\n",
	},
	sym: "method Redis.set",
	has: []string{"set(key: string, value: string, callback?: Callback<'OK'>): R\nset(key: string, value: string, nx: 'NX'): R"},
}, {
	name: "an inherited constructor names the base as the subclass writes it",
	files: map[string]string{
		"index.d.ts": "import AjvCore from './core';\nexport default class Ajv extends AjvCore {\n  addVocabulary(): void;\n}\n",
		"core.d.ts":  "export default class Ajv {\n  constructor(opts?: Options);\n}\n",
	},
	sym: "class Ajv",
	has: []string{"// constructor inherited from AjvCore\n    constructor(opts?: Options);"},
}, {
	name:  "a null address is a specialised form",
	files: map[string]string{"index.d.ts": "export declare class WebSocket {\n  constructor(address: null);\n  constructor(address: string | URL, options?: Options);\n}\n"},
	sym:   "class WebSocket",
	has:   []string{"constructor(address: string | URL, options?: Options);\n    constructor(address: null);"},
}, {
	name: "a constant typed by a callable type alias shows the alias (zustand's create)",
	files: map[string]string{
		"index.d.ts": "import { type Create } from './types.js';\nexport declare const create: Create;\n",
		"types.d.ts": "export type Create = {\n    <T>(initializer: StateCreator<T>): UseBoundStore<T>;\n};\n",
	},
	sym: "const create",
	has: []string{"const create: Create\n\ntype Create = {\n    <T>(initializer: StateCreator<T>): UseBoundStore<T>;\n}"},
}, {
	name:  "a constant typed by an interface of call signatures shows the interface (immer's produce)",
	files: map[string]string{"index.d.ts": "interface IProduce {\n    /** Curried. */\n    <Recipe>(recipe: Recipe): Curried<Recipe>;\n    <Base>(base: Base, recipe: (draft: Draft<Base>) => void): Base;\n}\nexport declare const produce: IProduce;\n"},
	sym:   "const produce",
	has:   []string{"const produce: IProduce\n\ninterface IProduce {\n    <Recipe>(recipe: Recipe): Curried<Recipe>;\n    <Base>(base: Base"},
}, {
	name:  "braces in comments and strings do not end a namespace's body (joi)",
	files: map[string]string{"index.d.ts": "declare namespace Joi {\n  /** wrapper: `'{'` or `'['` */\n  type Wrapper = '}' | ']';\n  interface Root {\n    string(): StringSchema;\n  }\n}\ndeclare const Joi: Joi.Root;\nexport = Joi;\n"},
	sym:   "function string",
	has:   []string{"string(): StringSchema"},
}, {
	name: "a property typed by an imported interface of call signatures shows it (fastify's get)",
	files: map[string]string{
		"index.d.ts": "import { RouteShorthandMethod } from './route';\nexport interface FastifyInstance {\n  get: RouteShorthandMethod<Server>;\n  port: number;\n}\n",
		"route.d.ts": "export interface RouteShorthandMethod<S> {\n  (path: string, handler: Handler<S>): FastifyInstance;\n}\n",
	},
	sym: "property FastifyInstance.get",
	has: []string{"get: RouteShorthandMethod<Server>\ninterface RouteShorthandMethod<S> {\n    (path: string, handler: Handler<S>): FastifyInstance;\n}"},
}, {
	name:  "lines comments leave empty in a class header go (socket.io's Server)",
	files: map[string]string{"index.d.ts": "export declare class Server<\n    /** listen */\n    L = D,\n    /** emit */\n    E = L> {\n  constructor(opts?: Options);\n}\n"},
	sym:   "class Server",
	has:   []string{"class Server<\n    L = D,\n    E = L> {"},
}, {
	name: "export { X } of an import = require() namespace (sequelize's DataTypes)",
	files: map[string]string{
		"index.d.ts":      "import DataTypes = require('./data-types');\nexport { DataTypes };\n",
		"data-types.d.ts": "export const STRING: StringConstructor;\ninterface StringConstructor {\n  (length?: number): StringType;\n}\n",
	},
	sym: "const DataTypes.STRING",
	has: []string{"const STRING: StringConstructor\n\ninterface StringConstructor {\n    (length?: number): StringType;\n}"},
}, {
	name:  "a constant typed by a generic alias shows the alias (vue's createApp)",
	files: map[string]string{"index.d.ts": "type CreateAppFunction<H> = (root: Component) => App<H>;\nexport declare const createApp: CreateAppFunction<Element>;\n"},
	sym:   "const createApp",
	has:   []string{"const createApp: CreateAppFunction<Element>\n\ntype CreateAppFunction<H> = (root: Component) => App<H>"},
}}

func TestScannerYargsLeavesUnaskedMembers(t *testing.T) {
	syms := scanFiles(map[string]string{
		"index.d.ts": "export type { Argv } from './main.js';",
		"main.d.ts":  "declare namespace yargs {\n  interface Argv {}\n  interface Hidden {}\n}\nexport = yargs;",
	})
	if _, ok := syms["interface Hidden"]; ok {
		t.Errorf("a member not exported was listed: %v", syms)
	}
	if _, ok := syms["interface Argv"]; !ok {
		t.Errorf("Argv missing: %v", syms)
	}
}

func TestScannerInstanceAliases(t *testing.T) {
	syms := (&Scanner{Read: func(n string) ([]byte, bool) {
		return []byte("export declare class Command {\n  command(name: string): Command;\n}\nexport declare const program: Command;\n"), n == "index.d.ts"
	}}).Scan("index.d.ts")
	for _, s := range syms {
		if s.Name == "Command.command" {
			if len(s.Aliases) != 1 || s.Aliases[0] != "program.command" {
				t.Fatalf("aliases %q, want program.command", s.Aliases)
			}
			return
		}
	}
	t.Fatal("Command.command missing")
}

func TestScannerAmbientNamespaceAliases(t *testing.T) {
	src := "declare module \"fs\" {\n  export * as promises from \"node:fs/promises\";\n  export function readFile(p: string): void;\n}\n" +
		"declare module \"fs/promises\" {\n  export function readFile(\n          p: string,\n      ): Promise<string>;\n}\n"
	syms := (&Scanner{Read: func(n string) ([]byte, bool) { return []byte(src), n == "index.d.ts" }}).Scan("index.d.ts")
	for _, s := range syms {
		if s.Name == "fs/promises.readFile" {
			if len(s.Aliases) != 1 || s.Aliases[0] != "fs.promises.readFile" {
				t.Fatalf("aliases %q, want fs.promises.readFile", s.Aliases)
			}
			if want := "function readFile(\n    p: string,\n): Promise<string>"; s.Signature != want {
				t.Fatalf("signature %q, want %q", s.Signature, want)
			}
			return
		}
	}
	t.Fatal("fs/promises.readFile missing")
}

func TestScannerPromotedAliases(t *testing.T) {
	src := "declare const _: _.LoDashStatic;\nexport = _;\ndeclare namespace _ {\n  interface LoDashStatic {\n    get(object: any, path: string): any;\n  }\n}\n"
	syms := (&Scanner{Read: func(n string) ([]byte, bool) { return []byte(src), n == "index.d.ts" }}).Scan("index.d.ts")
	for _, s := range syms {
		if s.Name == "get" {
			if len(s.Aliases) != 1 || s.Aliases[0] != "_.get" {
				t.Fatalf("aliases %q, want _.get", s.Aliases)
			}
			return
		}
	}
	t.Fatal("get missing")
}

func TestScannerGlobalInsideModule(t *testing.T) {
	src := "declare module \"process\" {\n  global {\n    var process: NodeJS.Process;\n    namespace NodeJS {\n      interface Process {\n        env: ProcessEnv;\n      }\n    }\n  }\n}\n"
	syms := (&Scanner{Read: func(n string) ([]byte, bool) { return []byte(src), n == "index.d.ts" }}).Scan("index.d.ts")
	for _, s := range syms {
		if s.Name == "NodeJS.Process.env" {
			if len(s.Aliases) != 1 || s.Aliases[0] != "process.env" {
				t.Fatalf("aliases %q, want process.env", s.Aliases)
			}
			return
		}
	}
	var names []string
	for _, s := range syms {
		names = append(names, s.Name)
	}
	t.Fatalf("NodeJS.Process.env missing from %q", names)
}
