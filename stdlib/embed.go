// Package stdlib holds Lowent's standard library sources, compiled into
// lowentc so that `import NAME` finds them wherever the tool runs.
package stdlib

import "embed"

// FS holds every stdlib module: NAME.lw, or NAME/NAME.lw for a module with a folder of its own.
//
//go:embed *.lw crypto_hw/*.lw
var FS embed.FS
