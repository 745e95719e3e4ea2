package main

import (
	"embed"
	"io/fs"

	"github.com/gomcp/sdk/ext/skills"
	"github.com/gomcp/sdk/mcp"
)

// skillsFS holds the skills the server serves (the Skills extension): two
// skills, one with a file in a subfolder, so that every check of the
// suite's skills scenarios has something to look at.
//
//go:embed skills
var skillsFS embed.FS

// addSkills serves the embedded catalog, with resources/directory/read.
func addSkills(srv *mcp.Server) {
	root, err := fs.Sub(skillsFS, "skills")
	if err != nil {
		panic(err)
	}
	cat, err := skills.NewCatalog(root, nil)
	if err != nil {
		panic(err) // the embedded catalog is part of the program
	}
	skills.AddCatalog(srv, cat, &skills.ServeOptions{DirectoryRead: true})
}
