//go:build lowentc_example

// Command cgo seals a message with AES-128-GCM through the static library
// lowentc builds from stdlib/gcm.lw, from Go via cgo. Build it with the
// library and header in DIR (see docs/amd64.md):
//
//	CGO_CFLAGS=-IDIR CGO_LDFLAGS="DIR/libgcm.a" go run -tags lowentc_example ./backend/amd64/examples/cgo
package main

/*
#include "gcm.h"
*/
import "C"

import (
	"fmt"
	"os"
	"unsafe"
)

// seal calls lowentc_gcm_aes128_gcm_seal.
func seal(key [16]byte, nonce [12]byte, aad, pt []byte) (ct []byte, tag [16]byte, err error) {
	ct = make([]byte, len(pt))
	ptr := func(b []byte) *C.uint8_t {
		if len(b) == 0 {
			return nil
		}
		return (*C.uint8_t)(unsafe.Pointer(&b[0]))
	}
	st := C.lowentc_gcm_aes128_gcm_seal((*C.uint8_t)(&key[0]), (*C.uint8_t)(&nonce[0]),
		ptr(aad), C.size_t(len(aad)), ptr(pt), C.size_t(len(pt)), ptr(ct), C.size_t(len(ct)),
		(*C.uint8_t)(&tag[0]))
	if st != 0 {
		return nil, tag, fmt.Errorf("seal: status %d", int(st))
	}
	return ct, tag, nil
}

func main() {
	var key [16]byte
	var nonce [12]byte
	for i := range key {
		key[i] = byte(i)
	}
	for i := range nonce {
		nonce[i] = byte(0xa0 + i)
	}
	ct, tag, err := seal(key, nonce, []byte("header"), []byte("hello, lowent"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("ct=%x\ntag=%x\n", ct, tag)
}
