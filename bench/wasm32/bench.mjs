// lowentc's wasm32 output (--emit js, built by ./build.sh into out/)
// against hash-wasm (hand-written WebAssembly) and the noble libraries
// (JavaScript), side by side in this one Node process: MB/s at 16 KiB and
// 64 B for SHA-256, BLAKE2b-512, AES-128-GCM and ChaCha20-Poly1305 (seal),
// each the best of ROUNDS rounds of at least ROUND_MS (the implementations
// of a primitive take turns: on a shared machine another process only
// ever slows a round down, so the best round is the least disturbed), and
// our speed as a multiple of each peer's. Every implementation's output is checked
// against ours first. docs/wasm32.md has the commands and the figures.
//
//   node bench.mjs [--round-ms N] [--rounds N]   (defaults 200, 5)
import { createBLAKE2b, createSHA256 } from "hash-wasm";
import { blake2b as nobleBlake2b } from "@noble/hashes/blake2.js";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { gcm as nobleGcm } from "@noble/ciphers/aes.js";
import { chacha20poly1305 as nobleChaPoly } from "@noble/ciphers/chacha.js";

import * as lwSha256 from "./out/sha256.mjs";
import * as lwBlake2b from "./out/blake2b.mjs";
import * as lwGcm from "./out/gcm.mjs";
import * as lwChaPoly from "./out/chacha20poly1305.mjs";

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? def : Number(process.argv[i + 1]);
};
const ROUND_MS = arg("--round-ms", 200);
const ROUNDS = arg("--rounds", 5);
const SIZES = [16384, 64];

const bytes = (n, seed) => Uint8Array.from({ length: n }, (_, i) => (i * 131 + seed * 7 + (i >> 8)) & 255);
const hex = (b) => Buffer.from(b).toString("hex");
const key16 = bytes(16, 1), key32 = bytes(32, 2), nonce = bytes(12, 3), aad = new Uint8Array(0);

const hwSha = await createSHA256();
const hwBlake = await createBLAKE2b(512);

// Each primitive: its implementations, each a function of the message
// returning the output (digest, or ciphertext and tag).
const prims = [
  {
    name: "SHA-256",
    impls: {
      lowentc: (m) => { const out = new Uint8Array(32); lwSha256.sha256(m, out); return out; },
      "hash-wasm": (m) => hwSha.init().update(m).digest("binary"),
      noble: (m) => nobleSha256(m),
    },
  },
  {
    name: "BLAKE2b-512",
    impls: {
      lowentc: (m) => { const out = new Uint8Array(64); lwBlake2b.blake2b(m, out); return out; },
      "hash-wasm": (m) => hwBlake.init().update(m).digest("binary"),
      noble: (m) => nobleBlake2b(m),
    },
  },
  {
    name: "AES-128-GCM seal",
    impls: {
      lowentc: (m) => {
        const ct = new Uint8Array(m.length + 16);
        lwGcm.aes128_gcm_seal(key16, nonce, aad, m, ct.subarray(0, m.length), ct.subarray(m.length));
        return ct;
      },
      noble: (m) => nobleGcm(key16, nonce).encrypt(m),
    },
  },
  {
    name: "ChaCha20-Poly1305 seal",
    impls: {
      lowentc: (m) => {
        const ct = new Uint8Array(m.length + 16);
        lwChaPoly.chacha20_poly1305_seal(key32, nonce, aad, m, ct.subarray(0, m.length), ct.subarray(m.length));
        return ct;
      },
      noble: (m) => nobleChaPoly(key32, nonce).encrypt(m),
    },
  },
];

// round is the MB/s of f on m over at least ROUND_MS.
function round(f, m) {
  let n = 0, dt = 0;
  const t0 = process.hrtime.bigint();
  do {
    for (let i = 0; i < 8; i++) f(m);
    n += 8;
    dt = Number(process.hrtime.bigint() - t0) / 1e6;
  } while (dt < ROUND_MS);
  return (n * m.length) / (dt * 1e3);
}

// rates measures every implementation of p on m: a warm-up round each
// (so that the engine's optimizing tier has compiled it), then ROUNDS
// rounds taking the implementations in turn; the best of each.
function rates(impls, m) {
  for (const f of Object.values(impls)) round(f, m);
  const got = Object.fromEntries(Object.keys(impls).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, f] of Object.entries(impls)) got[name].push(round(f, m));
  }
  const out = {};
  for (const [name, xs] of Object.entries(got)) out[name] = Math.max(...xs);
  return out;
}

console.log("node " + process.version + ", the best of " + ROUNDS + " rounds of >= " + ROUND_MS + " ms each; MB/s (1e6 bytes/s)");
const rows = [];
for (const p of prims) {
  for (const size of SIZES) {
    const m = bytes(size, size);
    const want = hex(p.impls.lowentc(m));
    for (const [name, f] of Object.entries(p.impls)) {
      if (hex(f(m)) !== want) throw new Error(p.name + " " + size + " B: " + name + " disagrees with lowentc");
    }
    rows.push({ primitive: p.name, bytes: size, ...rates(p.impls, m) });
  }
}
const fmt = (x) => (x === undefined ? "-" : x.toFixed(1));
const ratio = (a, b) => (b === undefined ? "-" : (a / b).toFixed(2) + "x");
const header = ["primitive", "bytes", "lowentc", "hash-wasm", "noble", "vs hash-wasm", "vs noble"];
const table = rows.map((r) => [r.primitive, String(r.bytes), fmt(r.lowentc), fmt(r["hash-wasm"]), fmt(r.noble), ratio(r.lowentc, r["hash-wasm"]), ratio(r.lowentc, r.noble)]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
const line = (cells) => "| " + cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ") + " |";
console.log(line(header));
console.log("|" + widths.map((w, i) => (i < 1 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|");
for (const t of table) console.log(line(t));
