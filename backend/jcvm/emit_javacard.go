package jcvm

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/lowent/lowentc/backend"
)

// The converter route (--emit javacard -o DIR): a source tree a Java Card
// developer builds with the SDK's converter through ant-javacard:
//
//	build.xml                       ant-javacard: package and applet AIDs
//	src/lowent/<Module>.java        the library class (public)
//	src/lowent/<Module>Applet.java  the applet (public)
//	.lowentc-tree                   marks the directory as lowentc's
//
// The package and applet AIDs come from --aid (see ParseAIDs).

// javaPackage is the Java package of every generated class.
const javaPackage = "lowent"

// TreeMarker is the file that marks a directory as a tree lowentc wrote
// (one that --emit javacard may replace).
const TreeMarker = ".lowentc-tree"

// defaultRID is the RID of the default AIDs: F0 followed by "LWNT". An
// AID whose first digit is F is in ISO/IEC 7816-5's category of
// proprietary, unregistered AIDs, so the default claims no one's RID.
var defaultRID = []byte{0xF0, 0x4C, 0x57, 0x4E, 0x54}

// maxDefaultPIX bounds the module name's bytes in a default package AID,
// so that the applet's AID (one byte more) stays within 16 bytes.
const maxDefaultPIX = 10

// AIDs are a package's AID and its applet's.
type AIDs struct{ Package, Applet []byte }

// DefaultAIDs are the AIDs of class cls without --aid: the package is
// F0 4C 57 4E 54 followed by the class name in ASCII (its first 10
// bytes), the applet the package's AID followed by 01.
func DefaultAIDs(className string) AIDs {
	pix := []byte(className)
	if len(pix) > maxDefaultPIX {
		pix = pix[:maxDefaultPIX]
	}
	pkg := append(append([]byte(nil), defaultRID...), pix...)
	return AIDs{Package: pkg, Applet: append(append([]byte(nil), pkg...), 0x01)}
}

// ParseAIDs reads --aid: PACKAGE or PACKAGE,APPLET, each 5 to 16 bytes in
// hex (colons between bytes allowed: A0:00:00:00:62). Without APPLET the
// applet's AID is PACKAGE followed by 01 (so PACKAGE has at most 15
// bytes). As Java Card requires, the applet's AID starts with the
// package's RID (its first 5 bytes) and differs from the package's.
func ParseAIDs(spec string) (AIDs, error) {
	ps, as, two := strings.Cut(spec, ",")
	pkg, err := parseAID(ps)
	if err != nil {
		return AIDs{}, fmt.Errorf("--aid %s: package AID: %v", spec, err)
	}
	var app []byte
	if two {
		if app, err = parseAID(as); err != nil {
			return AIDs{}, fmt.Errorf("--aid %s: applet AID: %v", spec, err)
		}
	} else {
		if len(pkg) > 15 {
			return AIDs{}, fmt.Errorf("--aid %s: a package AID of 16 bytes leaves no room for the applet's (the package's and 01): give both, PACKAGE,APPLET", spec)
		}
		app = append(append([]byte(nil), pkg...), 0x01)
	}
	switch {
	case string(app[:5]) != string(pkg[:5]):
		return AIDs{}, fmt.Errorf("--aid %s: the applet AID must start with the package's RID %X", spec, pkg[:5])
	case string(app) == string(pkg):
		return AIDs{}, fmt.Errorf("--aid %s: the applet AID must differ from the package's", spec)
	}
	return AIDs{Package: pkg, Applet: app}, nil
}

// parseAID reads one AID in hex.
func parseAID(s string) ([]byte, error) {
	h := strings.ReplaceAll(s, ":", "")
	b, err := hex.DecodeString(h)
	if err != nil || h == "" {
		return nil, fmt.Errorf("%q is not hex bytes (e.g. F04C574E5401)", s)
	}
	if len(b) < 5 || len(b) > 16 {
		return nil, fmt.Errorf("%X has %d bytes; an AID has 5 to 16", b, len(b))
	}
	return b, nil
}

// aidsOf are the AIDs opts asks for (--aid, else the default for cls).
func aidsOf(cls *Class, opts backend.Options) (AIDs, error) {
	if opts.AID == "" {
		return DefaultAIDs(cls.Name), nil
	}
	return ParseAIDs(opts.AID)
}

// jcaArtifact is the .jca of --emit jca: the library package, with the
// package AID of --aid.
func jcaArtifact(cls *Class, opts backend.Options) ([]byte, error) {
	aids, err := aidsOf(cls, opts)
	if err != nil {
		return nil, err
	}
	return []byte(printJCA(cls, javaPackage, aids.Package)), nil
}

// JavaCardTree compiles in to the tree of --emit javacard: file contents by
// path relative to the tree's root (slash-separated). Like every jcvm
// artifact it is refused when the module does not fit opts.Card (unless
// opts.NoCardLimits); opts.Stats receives the figures.
func JavaCardTree(in *backend.Input, opts backend.Options) (map[string][]byte, error) {
	card, err := cardOf(opts.Card)
	if err != nil {
		return nil, err
	}
	cls, err := compileClass(in, opts)
	if err != nil {
		return nil, err
	}
	st, err := statsOf(cls)
	if err != nil {
		return nil, err
	}
	if opts.Stats != nil {
		*opts.Stats = st.stats(cls, card)
	}
	if err := st.fits(cls, card); err != nil && !opts.NoCardLimits {
		return nil, err
	}
	aids, err := aidsOf(cls, opts)
	if err != nil {
		return nil, err
	}
	return javaCardFiles(cls, aids), nil
}

// javaCardFiles renders the tree of cls.
func javaCardFiles(cls *Class, aids AIDs) map[string][]byte {
	dir := "src/" + strings.ReplaceAll(javaPackage, ".", "/") + "/"
	head := func(p *javaPrinter) {
		p.f("// Generated by lowentc (--target jcvm --emit javacard, W=%d). Do not edit.\n", cls.W)
		p.f("package %s;\n\n", javaPackage)
		p.f("import javacard.framework.*;\n\n")
	}
	lib := &javaPrinter{cls: cls}
	head(lib)
	lib.f("/** %s: the library methods of module %s (its applet: %sApplet). */\n", cls.Name, cls.Name, cls.Name)
	lib.library()
	app := &javaPrinter{cls: cls}
	head(app)
	app.applet(true)
	return map[string][]byte{
		dir + cls.Name + ".java":       []byte(lib.b.String()),
		dir + cls.Name + "Applet.java": []byte(strings.Replace(app.b.String(), "\n\n\n", "\n\n", 1)),
		"build.xml":                    []byte(buildXML(cls, aids)),
		TreeMarker:                     []byte("This directory was written by lowentc --emit javacard; lowentc replaces it whole when asked to write it again.\n"),
	}
}

// buildXML is the tree's ant-javacard build file.
func buildXML(cls *Class, aids AIDs) string {
	ints := ""
	if cls.W == 32 {
		ints = ` ints="true"`
	}
	return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by lowentc (target jcvm, emit javacard, W=%d). Do not edit.
     Build the CAP file with ant-javacard (https://github.com/martinpaljak/ant-javacard)
     and a Java Card SDK:
       ant -Djc.home=/path/to/java_card_kit [-Dant-javacard.jar=/path/to/ant-javacard.jar]
     It writes %s.cap (and %s.jca, the converter's assembly) to build/. -->
<project name="%s" default="cap" basedir=".">
  <property name="ant-javacard.jar" location="ant-javacard.jar"/>
  <taskdef name="javacard" classname="pro.javacard.ant.JavaCard" classpath="${ant-javacard.jar}"/>
  <target name="cap">
    <mkdir dir="build"/>
    <javacard>
      <cap package="%s" version="1.0" aid="%X" sources="src" output="build/%s.cap" jca="build/%s.jca"%s>
        <applet class="%s.%sApplet" aid="%X"/>
      </cap>
    </javacard>
  </target>
</project>
`, cls.W, cls.Name, cls.Name, cls.Name, javaPackage, aids.Package, cls.Name, cls.Name, ints, javaPackage, cls.Name, aids.Applet)
}
