package jcvm

import (
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/stdlib/golden"
)

// TestJavaCardTreeCompiles writes the --emit javacard tree of every stdlib
// module at both widths and compiles each width's trees with javac against
// the stub API (javac requires a public class in a file of its name, so
// this checks the layout too). The library class is the one of --emit
// java; build.xml is well-formed and names the package, the applet class
// and their AIDs.
func TestJavaCardTreeCompiles(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Fatal("javac not found: the jcvm backend's tests need a JDK")
	}
	stubs, _ := filepath.Glob(filepath.Join("stub", "javacard", "framework", "*.java"))
	for _, noInt := range []bool{false, true} {
		t.Run(fmt.Sprintf("noint=%v", noInt), func(t *testing.T) {
			root := t.TempDir()
			files := append([]string(nil), stubs...)
			for _, mod := range stdlibModules {
				p, err := golden.Load(mod)
				if err != nil {
					t.Fatal(err)
				}
				// Some modules exceed jcop4's limits: the tree is still
				// Java a JVM compiles.
				opts := backend.Options{NoInt: noInt, NoCardLimits: true}
				tree, err := JavaCardTree(input(p), opts)
				if err != nil {
					t.Fatalf("%s: %v", mod, err)
				}
				cls := stdlibClass(t, mod, opts)
				lib, app := "src/lowent/"+cls.Name+".java", "src/lowent/"+cls.Name+"Applet.java"
				var paths []string
				for path := range tree {
					paths = append(paths, path)
				}
				slices.Sort(paths)
				want := []string{TreeMarker, "build.xml", lib, app}
				slices.Sort(want)
				if !slices.Equal(paths, want) {
					t.Fatalf("%s: the tree holds %q, want %q", mod, paths, want)
				}
				checkTreeJava(t, mod, cls, string(tree[lib]), string(tree[app]), noInt)
				checkBuildXML(t, mod, cls, tree["build.xml"])
				for path, data := range tree {
					f := filepath.Join(root, mod, filepath.FromSlash(path))
					if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(f, data, 0o644); err != nil {
						t.Fatal(err)
					}
					if strings.HasSuffix(path, ".java") {
						files = append(files, f)
					}
				}
			}
			out := filepath.Join(root, "classes")
			cmd := exec.Command("javac", append([]string{"--release", "8", "-nowarn", "-d", out}, files...)...)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("javac: %v\n%s", err, msg)
			}
			for _, mod := range stdlibModules {
				name := className(mod)
				for _, c := range []string{name, name + "Applet"} {
					if _, err := os.Stat(filepath.Join(out, "lowent", c+".class")); err != nil {
						t.Errorf("%s: no class %s: %v", mod, c, err)
					}
				}
			}
		})
	}
}

// checkTreeJava checks the two Java files of a tree: each declares one
// public class of its file's name in package lowent; the library is the
// class of --emit java; nothing the converter refuses.
func checkTreeJava(t *testing.T, mod string, cls *Class, lib, app string, noInt bool) {
	t.Helper()
	single := printJava(cls, javaPackage)
	start := strings.Index(single, "public final class "+cls.Name+" {")
	end := strings.Index(single, "\n/** "+cls.Name+"Applet ")
	if start < 0 || end < 0 || !strings.Contains(lib, single[start:end]) {
		t.Errorf("%s: the tree's %s.java is not the library class of --emit java", mod, cls.Name)
	}
	if !strings.Contains(app, "\npublic final class "+cls.Name+"Applet extends Applet {") {
		t.Errorf("%s: %sApplet.java does not declare a public applet class", mod, cls.Name)
	}
	for name, src := range map[string]string{"library": lib, "applet": app} {
		if !strings.Contains(src, "\npackage lowent;\n") {
			t.Errorf("%s: the %s is not in package lowent", mod, name)
		}
		if n := strings.Count(src, "\npublic final class "); n != 1 {
			t.Errorf("%s: the %s file declares %d public classes", mod, name, n)
		}
		if msg := javaSubsetErrors(mod+" "+name, src, noInt); msg != "" {
			t.Error(msg)
		}
	}
}

// checkBuildXML parses build.xml and checks its ant-javacard task.
func checkBuildXML(t *testing.T, mod string, cls *Class, data []byte) {
	t.Helper()
	var proj struct {
		Default string `xml:"default,attr"`
		Taskdef struct {
			Classname string `xml:"classname,attr"`
		} `xml:"taskdef"`
		Target struct {
			Name string `xml:"name,attr"`
			Cap  struct {
				Package string `xml:"package,attr"`
				AID     string `xml:"aid,attr"`
				Sources string `xml:"sources,attr"`
				Ints    string `xml:"ints,attr"`
				Applet  struct {
					Class string `xml:"class,attr"`
					AID   string `xml:"aid,attr"`
				} `xml:"applet"`
			} `xml:"javacard>cap"`
		} `xml:"target"`
	}
	if err := xml.Unmarshal(data, &proj); err != nil {
		t.Fatalf("%s: build.xml: %v", mod, err)
	}
	c := proj.Target.Cap
	aids := DefaultAIDs(cls.Name)
	wantInts := map[int]string{32: "true", 16: ""}[cls.W]
	if proj.Taskdef.Classname != "pro.javacard.ant.JavaCard" || proj.Default != proj.Target.Name || c.Package != "lowent" || c.Sources != "src" ||
		c.AID != fmt.Sprintf("%X", aids.Package) || c.Applet.AID != fmt.Sprintf("%X", aids.Applet) ||
		c.Applet.Class != "lowent."+cls.Name+"Applet" || c.Ints != wantInts {
		t.Errorf("%s: build.xml: %+v", mod, proj)
	}
}

// TestAIDs checks --aid's reading and the defaults.
func TestAIDs(t *testing.T) {
	d := DefaultAIDs("Sha256")
	if fmt.Sprintf("%X %X", d.Package, d.Applet) != "F04C574E54536861323536 F04C574E5453686132353601" {
		t.Errorf("default AIDs %X %X", d.Package, d.Applet)
	}
	if d := DefaultAIDs("Averyveryverylongname"); len(d.Package) != 15 || len(d.Applet) != 16 {
		t.Errorf("default AIDs of a long name: %X %X", d.Package, d.Applet)
	}
	for spec, want := range map[string]string{
		"A000000062":                "A000000062 A00000006201",
		"a0:00:00:00:62:03":         "A00000006203 A0000000620301",
		"F04C574E5401,F04C574E5499": "F04C574E5401 F04C574E5499",
	} {
		a, err := ParseAIDs(spec)
		if err != nil || fmt.Sprintf("%X %X", a.Package, a.Applet) != want {
			t.Errorf("ParseAIDs(%q) = %X %X, %v; want %s", spec, a.Package, a.Applet, err, want)
		}
	}
	for spec, msg := range map[string]string{
		"":                                   "is not hex",
		"A0000000":                           "has 4 bytes",
		"A0000000G2":                         "is not hex",
		"A000000062000000000000000000000011": "has 17 bytes",
		"A0000000620000000000000000000000":   "16 bytes leaves no room",
		"A000000062,A100000062":              "must start with the package's RID A000000062",
		"A000000062,A000000062":              "must differ",
	} {
		if _, err := ParseAIDs(spec); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseAIDs(%q): %v, want an error with %q", spec, err, msg)
		}
	}
}
