package jcvm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/tools"
)

// TestCapgenAcceptsJCA runs the Java Card 3.0.5u3 kit's capgen on the .jca
// of every stdlib module at both widths (library class and applet), then
// the off-card verifier on the CAP it writes, with the export files of
// java.lang and javacard.framework. capgen prints nothing when it
// succeeds: the test wants its exit status 0, no error in its output and a
// CAP; the verifier must say "0 warnings and 0 errors".
func TestCapgenAcceptsJCA(t *testing.T) {
	kit := tools.JavaCardKit(t)
	if _, err := exec.LookPath("java"); err != nil {
		t.Fatalf("java not found: capgen and verifycap need a JRE: %v", err)
	}
	jars, err := filepath.Glob(filepath.Join(kit, "lib", "*.jar"))
	if err != nil || len(jars) == 0 {
		t.Fatalf("no jars in %s/lib: %v", kit, err)
	}
	cp := strings.Join(jars, string(os.PathListSeparator))
	exps := []string{
		filepath.Join(kit, "api_export_files", "java", "lang", "javacard", "lang.exp"),
		filepath.Join(kit, "api_export_files", "javacard", "framework", "javacard", "framework.exp"),
	}
	dir := t.TempDir()
	sem := make(chan struct{}, 4) // JVMs at a time
	java := func(t *testing.T, args ...string) (string, error) {
		sem <- struct{}{}
		defer func() { <-sem }()
		out, err := exec.Command("java", append([]string{"-Djc.home=" + kit, "-cp", cp}, args...)...).CombinedOutput()
		return string(out), err
	}
	for _, noInt := range []bool{false, true} {
		for _, mod := range stdlibModules {
			name := mod
			if noInt {
				name += "-noint"
			}
			opts := backend.Options{NoInt: noInt}
			cls := stdlibClass(t, mod, opts)
			text, err := jcaArtifact(cls, opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				jca := filepath.Join(dir, name+".jca")
				capFile := filepath.Join(dir, name+".cap")
				if err := os.WriteFile(jca, text, 0o644); err != nil {
					t.Fatal(err)
				}
				out, err := java(t, "com.sun.javacard.jcasm.cap.Main", "-nobanner", "-o", capFile, jca)
				if err != nil || strings.Contains(strings.ToLower(out), "error") {
					t.Fatalf("capgen %s: %v\n%s", jca, err, out)
				}
				st, err := os.Stat(capFile)
				if err != nil || st.Size() == 0 {
					t.Fatalf("capgen wrote no CAP: %v\n%s", err, out)
				}
				out, err = java(t, append(append([]string{"com.sun.javacard.offcardverifier.Verifier", "-nobanner"}, exps...), capFile)...)
				if err != nil || !strings.Contains(out, "Verification completed with 0 warnings and 0 errors") {
					t.Fatalf("verifycap %s: %v\n%s", capFile, err, out)
				}
				t.Logf("CAP %d bytes, verified with 0 warnings and 0 errors", st.Size())
			})
		}
	}
}
