// Package skills serves and reads Agent Skills over MCP (the
// "io.modelcontextprotocol/skills" extension): a skill is a folder with a
// SKILL.md (YAML frontmatter, then instructions) and any files it uses.
//
// A server builds a Catalog from an fs.FS (an embed.FS, os.DirFS, ...), and
// AddCatalog serves it: skills/list and skills/get describe each skill by
// its SKILL.md URI, frontmatter and a manifest of its files with their
// SHA-256 digests and sizes; the files themselves are resources read with
// resources/read ("skill://<path>/<file>"); resources/directory/read lists
// a skill's folders when the server turns it on.
//
// A client lists skills with List (which reads no file) and loads one with
// Load, which reads its SKILL.md and checks it against the entry (size,
// digest and frontmatter) before returning it; ReadFile reads and checks
// any other file of the skill. Content that fails a check is never
// returned.
//
// Like every extension, Skills is off until a program turns it on:
// AddCatalog declares it in a server's capabilities and adds its methods,
// with one call to mcp.Server.AddExtension; EnableClient declares it in a
// client's.
package skills
