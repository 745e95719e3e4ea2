package service

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestPythonDidYouMean: a misspelt name in a recorded installation is
// answered with the public paths users write, never a private module's.
func TestPythonDidYouMean(t *testing.T) {
	dir, err := evalProject(t, map[string]string{}, "python")
	if err != nil {
		t.Fatal(err)
	}
	s := projectService(t, dir)
	tests := []struct{ pkg, symbol, want string }{
		{"flask", "Flsk", "flask.Flask"},
		{"flask", "Flask.rout", "flask.Flask.route"},
		{"python-dateutil", "dateutil.parser.prase", "dateutil.parser.parse"},
		{"pydantic", "BaseModle", "pydantic.BaseModel"},
		{"jinja2", "Enviroment", "jinja2.Environment"},
	}
	for _, tt := range tests {
		_, err := s.DescribePythonPackage(context.Background(), DescribeArgs{Package: tt.pkg, Symbol: tt.symbol, ProjectPath: dir})
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s %s: %v, want not found", tt.pkg, tt.symbol, err)
			continue
		}
		_, sugg, _ := strings.Cut(err.Error(), "did you mean ")
		if !strings.Contains(sugg, tt.want) || strings.Contains(sugg, "._") {
			t.Errorf("%s %s: %v; want %s suggested, no private path", tt.pkg, tt.symbol, err, tt.want)
		}
	}
}
