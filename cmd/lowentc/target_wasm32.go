package main

import _ "github.com/lowent/lowentc/backend/wasm32"
