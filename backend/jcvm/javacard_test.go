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
	"github.com/lowent/lowentc/internal/testprog"
)

// TestJavaCardTreeCompiles writes the --emit javacard tree of every stdlib
// module at both widths and compiles each width's trees with javac against
// the stub API (javac requires a public class in a file of its name, so
// this checks the layout too). The library class is the one of --emit
// java; build.xml is well-formed and names the package, the applet class
// and their AIDs. The library file's code (what follows its comments) is
// byte for byte the library class of the --emit java file that jvmBuild
// compiled as <Name>.java, so javac compiles only the applet files here,
// against jvmBuild's classes.
func TestJavaCardTreeCompiles(t *testing.T) {
	if _, err := exec.LookPath("javac"); err != nil {
		t.Fatal("javac not found: the jcvm backend's tests need a JDK")
	}
	for _, noInt := range []bool{false, true} {
		t.Run(fmt.Sprintf("noint=%v", noInt), func(t *testing.T) {
			built, builtClasses := jvmBuild(t, noInt)
			root := t.TempDir()
			var files []string
			for _, mod := range stdlibModules {
				p := testprog.Stdlib(t, mod)
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
				if msg := sameLibraryCode(string(tree[lib]), printJava(builtClasses[mod], "lowent"), cls.Name); msg != "" {
					t.Errorf("%s: %s", mod, msg)
				}
				checkBuildXML(t, mod, cls, tree["build.xml"])
				for path, data := range tree {
					f := filepath.Join(root, mod, filepath.FromSlash(path))
					if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(f, data, 0o644); err != nil {
						t.Fatal(err)
					}
					if path == app {
						files = append(files, f)
					}
				}
			}
			out := filepath.Join(root, "classes")
			cmd := exec.Command("javac", append([]string{"--release", "8", "-nowarn", "-cp", built, "-d", out}, files...)...)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("javac: %v\n%s", err, msg)
			}
			for _, mod := range stdlibModules {
				name := className(mod)
				if _, err := os.Stat(filepath.Join(out, "lowent", name+"Applet.class")); err != nil {
					t.Errorf("%s: no class %sApplet: %v", mod, name, err)
				}
				if _, err := os.Stat(filepath.Join(built, "lowent", name+".class")); err != nil {
					t.Errorf("%s: no class %s: %v", mod, name, err)
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

// sameLibraryCode compares the library file of a tree with the --emit
// java file single: after their comment lines (the first line and the
// class's doc comment), the tree's file must be single's package and
// import lines and its class name, exactly, up to the applet's doc
// comment. "" when they agree.
func sameLibraryCode(lib, single, name string) string {
	code := func(s string) string {
		var keep []string
		for _, line := range strings.Split(s, "\n") {
			if !strings.HasPrefix(line, "// Generated by lowentc") && !strings.HasPrefix(line, "/** "+name+": the library methods") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "\n")
	}
	end := strings.Index(single, "\n/** "+name+"Applet ")
	if end < 0 {
		return "the --emit java file has no applet class"
	}
	a, b := strings.TrimRight(code(lib), "\n"), strings.TrimRight(code(single[:end]), "\n")
	if a != b {
		return "the tree's library file is not the library class jvmBuild compiled " + firstDiff([]byte(b), []byte(a))
	}
	return ""
}

// TestSameLibraryCode: the comparison TestJavaCardTreeCompiles relies on
// instead of compiling the library file again sees a change of code, and
// only comments may differ.
func TestSameLibraryCode(t *testing.T) {
	single := "// Generated by lowentc (--emit java). Do not edit.\npackage lowent;\n\nimport javacard.framework.*;\n\n/** A: the library methods of module a, then its applet. */\npublic final class A {\n    static short f() { return 1; }\n}\n\n/** AApplet the applet of A. */\nfinal class AApplet extends Applet {\n}\n"
	lib := "// Generated by lowentc (--emit javacard). Do not edit.\npackage lowent;\n\nimport javacard.framework.*;\n\n/** A: the library methods of module a (its applet: AApplet). */\npublic final class A {\n    static short f() { return 1; }\n}\n"
	if msg := sameLibraryCode(lib, single, "A"); msg != "" {
		t.Errorf("the same code: %s", msg)
	}
	for _, bad := range []string{
		strings.Replace(lib, "return 1", "return 2", 1),
		strings.Replace(lib, "package lowent;", "package other;", 1),
		strings.Replace(lib, "public final class A", "final class A", 1),
		lib + "class B {}\n",
	} {
		if sameLibraryCode(bad, single, "A") == "" {
			t.Errorf("no difference found in:\n%s", bad)
		}
	}
}
