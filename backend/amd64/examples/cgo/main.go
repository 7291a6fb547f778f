//go:build lowentc_example

// Command cgo seals a message with AES-128-GCM through the static library
// lowentc builds from stdlib/gcm.lw, from Go via cgo, the way a program
// that keeps a key does: aes128_gcm_init fills a key context once (its
// size is the header's LOWENTC_GCM_AES128_GCM_CTX_WORDS), then every seal
// and open uses it. Build it with the library and header in DIR (see
// docs/amd64.md):
//
//	CGO_CFLAGS=-IDIR CGO_LDFLAGS="DIR/libgcm.a" go run -tags lowentc_example ./backend/amd64/examples/cgo
package main

/*
#include "gcm.h"
*/
import "C"

import (
	"bytes"
	"fmt"
	"os"
	"unsafe"
)

// Key is an AES-128-GCM key context: the key schedule and the powers of
// the hash subkey, computed once by NewKey.
type Key struct {
	ctx [C.LOWENTC_GCM_AES128_GCM_CTX_WORDS]C.uint64_t
}

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// NewKey calls lowentc_gcm_aes128_gcm_init.
func NewKey(key [16]byte) (*Key, error) {
	k := new(Key)
	if st := C.lowentc_gcm_aes128_gcm_init((*C.uint8_t)(&key[0]), &k.ctx[0]); st != 0 {
		return nil, fmt.Errorf("init: status %d", int(st))
	}
	return k, nil
}

// Seal calls lowentc_gcm_aes128_gcm_seal_ctx.
func (k *Key) Seal(nonce [12]byte, aad, pt []byte) (ct []byte, tag [16]byte, err error) {
	ct = make([]byte, len(pt))
	st := C.lowentc_gcm_aes128_gcm_seal_ctx(&k.ctx[0], (*C.uint8_t)(&nonce[0]),
		ptr(aad), C.size_t(len(aad)), ptr(pt), C.size_t(len(pt)), ptr(ct), C.size_t(len(ct)),
		(*C.uint8_t)(&tag[0]))
	if st != 0 {
		return nil, tag, fmt.Errorf("seal: status %d", int(st))
	}
	return ct, tag, nil
}

// Open calls lowentc_gcm_aes128_gcm_open_ctx: the plaintext, or an error
// when the tag does not verify.
func (k *Key) Open(nonce [12]byte, aad, ct []byte, tag [16]byte) ([]byte, error) {
	pt := make([]byte, len(ct))
	var ok C.uint8_t
	st := C.lowentc_gcm_aes128_gcm_open_ctx(&k.ctx[0], (*C.uint8_t)(&nonce[0]),
		ptr(aad), C.size_t(len(aad)), ptr(ct), C.size_t(len(ct)), (*C.uint8_t)(&tag[0]),
		ptr(pt), C.size_t(len(pt)), &ok)
	if st != 0 {
		return nil, fmt.Errorf("open: status %d", int(st))
	}
	if ok == 0 {
		return nil, fmt.Errorf("open: message not authentic")
	}
	return pt, nil
}

// sealOnce calls the one-shot lowentc_gcm_aes128_gcm_seal, which sets the
// key up on every call.
func sealOnce(key [16]byte, nonce [12]byte, aad, pt []byte) (ct []byte, tag [16]byte, err error) {
	ct = make([]byte, len(pt))
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
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	k, err := NewKey(key)
	if err != nil {
		fail(err)
	}
	aad, msg := []byte("header"), []byte("hello, lowent")
	ct, tag, err := k.Seal(nonce, aad, msg)
	if err != nil {
		fail(err)
	}
	fmt.Printf("ct=%x\ntag=%x\n", ct, tag)
	ct1, tag1, err := sealOnce(key, nonce, aad, msg)
	if err != nil {
		fail(err)
	}
	if !bytes.Equal(ct1, ct) || tag1 != tag {
		fail(fmt.Errorf("one-shot seal gives ct=%x tag=%x", ct1, tag1))
	}
	pt, err := k.Open(nonce, aad, ct, tag)
	if err != nil {
		fail(err)
	}
	fmt.Printf("opened=%s\n", pt)
	tag[0] ^= 1
	if _, err := k.Open(nonce, aad, ct, tag); err == nil {
		fail(fmt.Errorf("a changed tag verified"))
	}
}
