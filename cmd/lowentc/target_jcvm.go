package main

import (
	"github.com/lowent/lowentc/backend/jcvm"
)

func init() {
	treeEmitters["jcvm/javacard"] = jcvm.JavaCardTree
	treeMarkers["jcvm/javacard"] = jcvm.TreeMarker
	jc := []string{"jcvm"}
	registerFlags(
		flagDef{name: "no-int", rank: 70, cmds: onTarget, targets: jc,
			help: []string{"jcvm: cards without the optional 32-bit int (16-bit limbs)"},
			set:  func(o *options, _ string) error { o.be.NoInt = true; return nil }},
		flagDef{name: "card", arg: "C", rank: 80, cmds: onTarget, targets: jc, strict: true,
			help: []string{"jcvm: card profile (cost model and limits): jcop4 (default), jcop3, jcop41, jcop31"},
			set:  func(o *options, v string) error { o.be.Card = v; return nil }},
		flagDef{name: "storage", arg: "S", rank: 90, cmds: onTarget, targets: jc, strict: true,
			help: []string{"jcvm: force a storage layout (the cost model's calibration variants)"},
			set:  func(o *options, v string) error { o.be.Storage = v; return nil }},
		flagDef{name: "no-card-limits", rank: 150, warnAt: 105, cmds: onCompile, targets: jc,
			help: []string{"jcvm compile: write the artifact even if it exceeds the --card's limits"},
			set:  func(o *options, _ string) error { o.be.NoCardLimits = true; return nil }},
		flagDef{name: "aid", arg: "P[,A]", rank: 160, cmds: onCompile, targets: jc,
			help: []string{
				"jcvm --emit jca, javacard: the package AID P and the applet AID A in hex",
				"(default F04C574E54 + the module's name; A defaults to P + 01)"},
			set: func(o *options, v string) error {
				if _, err := jcvm.ParseAIDs(v); err != nil {
					return err
				}
				o.be.AID = v
				return nil
			}},
		flagDef{name: "jc-home", arg: "DIR", rank: 165, cmds: onCompile, targets: jc,
			help: []string{
				"jcvm --emit cap: the Java Card 3.0.5 development kit (converter, capgen,",
				"verifier; default $JC_HOME)"},
			set: func(o *options, v string) error { o.be.JCHome = v; return nil }},
		flagDef{name: "route", arg: "R", rank: 166, cmds: onCompile, targets: jc, strict: true,
			help: []string{
				"jcvm --emit cap: java (javac and the kit's converter), jca (capgen on",
				"lowentc's own bytecode) or auto (default: java)"},
			set: func(o *options, v string) error { o.be.Route = v; return nil }},
	)
}
