// The arm64 target. (Not target_arm64.go: a file name ending in _arm64
// would build only on arm64 hosts.)

package main

import _ "github.com/lowent/lowentc/backend/arm64"

func init() {
	registerFlags(flagDef{name: "hw", arg: "H", rank: 32, cmds: onTarget, targets: []string{"arm64"},
		help: []string{"arm64 hardware paths: auto, none (default) or crypto"},
		set:  func(o *options, v string) error { o.be.HW = v; return nil }})
}
