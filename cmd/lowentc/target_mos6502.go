package main

import _ "github.com/lowent/lowentc/backend/mos6502"
