module github.com/lowent/lowentc

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/beevik/go6502 v0.2.0
	github.com/llir/llvm v0.3.6
	github.com/spf13/pflag v1.1.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/crypto v0.59.0
)

require (
	github.com/mewmew/float v0.0.0-20201204173432-505706aa38fa // indirect
	github.com/pkg/errors v0.9.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.4.2 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.1.4 // indirect
	golang.org/x/xerrors v0.0.0-20200804184101-5ec99f83aff1 // indirect
)
