package driver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lowent/lowentc/lang"
)

// TestHexArgumentErrors: a byte argument that is not hex is explained in the
// command line's terms, without the Go library's wording.
func TestHexArgumentErrors(t *testing.T) {
	u8 := &lang.WordType{Bits: 8}
	for text, want := range map[string]string{
		"zz":       `'z' at character 1 is not a hex digit`,
		"61g2":     `'g' at character 3 is not a hex digit`,
		"616":      "3 hex digits is an odd number: two make a byte",
		"0x616263": "no 0x prefix: the value is hex already",
		"61 62":    `' ' at character 3 is not a hex digit`,
	} {
		_, err := parseElems(u8, text)
		if assert.Error(t, err, text) {
			assert.Equal(t, "bytes are written in hex (e.g. 616263): "+want, err.Error(), text)
			assert.NotContains(t, err.Error(), "encoding/hex", text)
		}
	}
}
