package main

import _ "github.com/lowent/lowentc/backend/amd64"

func init() {
	registerFlags(flagDef{name: "hw", arg: "H", rank: 30, cmds: onTarget, targets: []string{"amd64"},
		help: []string{"amd64 hardware paths: auto, none (default), aes, or a feature list;"},
		set:  func(o *options, v string) error { o.be.HW = v; return nil }})
}
