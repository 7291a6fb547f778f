package main

import _ "github.com/lowent/lowentc/backend/wasm32"

func init() {
	registerFlags(flagDef{name: "hw", arg: "H", rank: 34, cmds: onTarget, targets: []string{"wasm32"},
		help: []string{"wasm32: none (default, the only level: every builtin computed)"},
		set:  func(o *options, v string) error { o.be.HW = v; return nil }})
}
