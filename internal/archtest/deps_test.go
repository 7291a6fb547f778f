package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/lowent/lowentc/"

// rules says which packages of the module each package must not depend on,
// directly or not: "*" for all of them.
var rules = []struct {
	pkg       string
	forbidden []string
}{
	// sem is the meaning of the language without the compiler.
	{"sem", []string{"*"}},
	// The IR knows the source only through sem.
	{"ir", []string{"lang", "parser", "driver", "lower", "vm"}},
	// A backend receives an *ir.Module from the driver (driver/middle):
	// it sees the program only through ir, sem and the backend contract.
	{"backend", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm"}},
	{"backend/amd64", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm"}},
	// The target-independent part of the LLVM path knows no target: each
	// (amd64, ...) imports it and implements its llvm.Target.
	{"backend/llvm", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm", "backend/amd64", "backend/arm64"}},
	{"backend/arm64", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm", "backend/amd64"}},
	{"backend/jcvm", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm"}},
	{"backend/mos6502", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm"}},
	// wasm32 is an LLVM target: it reaches the others only through backend/llvm.
	{"backend/wasm32", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm", "backend/amd64"}},
	// The runtime is Lowent source that backends embed: it reaches the
	// compiler only through the driver.
	{"lwrt", []string{"lang", "parser", "driver", "driver/middle", "lower", "vm", "ir", "backend"}},
}

// TestDependencies runs `go list -deps` on each package of rules and fails
// on a forbidden dependency, naming the chain of imports that brings it in.
func TestDependencies(t *testing.T) {
	for _, r := range rules {
		t.Run(r.pkg, func(t *testing.T) {
			imports := listDeps(t, module+r.pkg)
			for dep := range imports {
				if !strings.HasPrefix(dep, module) || dep == module+r.pkg {
					continue
				}
				for _, f := range r.forbidden {
					if f == "*" || dep == module+f {
						t.Errorf("%s depends on %s: %s", r.pkg, strings.TrimPrefix(dep, module),
							strings.Join(chain(imports, module+r.pkg, dep), " -> "))
					}
				}
			}
		})
	}
}

// listDeps returns every package pkg depends on (and pkg itself), each
// with its direct imports.
func listDeps(t *testing.T, pkg string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", pkg).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if _, ok := deps[pkg]; !ok {
		t.Fatalf("go list -deps %s does not list the package itself:\n%s", pkg, out)
	}
	return deps
}

// chain is a shortest path of imports from one package to another.
func chain(imports map[string][]string, from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			var path []string
			for ; p != ""; p = prev[p] {
				path = append([]string{strings.TrimPrefix(p, module)}, path...)
			}
			return path
		}
		for _, q := range imports[p] {
			if _, seen := prev[q]; !seen {
				prev[q] = p
				queue = append(queue, q)
			}
		}
	}
	return []string{strings.TrimPrefix(from, module), "...", strings.TrimPrefix(to, module)}
}
