package main

// addChain runs n iterations of addChainLen dependent register-register
// ADDs (not adds of an immediate, which some cores fold at rename).
func addChain(n int64) int64
