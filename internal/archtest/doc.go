// Package archtest holds the tests of the compiler's package structure:
// which packages may depend on which (go list -deps), so that the IR stays
// the contract between the middle end and every backend.
package archtest
