#!/usr/bin/env bash
# Checks that the tools the tests need are on PATH, and installs the
# missing ones (Debian/Ubuntu packages) when run as root; otherwise prints
# the command that installs them and fails. Run before `go test ./...`:
#
#   ./setup.sh && go test ./...
#
# The tools: go (the module's Go version), LLVM 14's opt, llc and
# llvm-objdump, gcc and ar (amd64); aarch64-linux-gnu-gcc with the arm64
# C library and qemu-aarch64 (arm64); javac and java 17 (the Java Card
# backend's JVM runners); 64tass and cc65's sim65 (6502); lld-14's wasm-ld
# and Node (wasm32).
set -euo pipefail

# tool:package pairs; a package is installed when any of its tools is
# missing (a tool that is an absolute path is a file that must exist).
tools=(
	"opt:llvm-14"
	"llc:llvm-14"
	"llvm-objdump:llvm-14"
	"gcc:gcc"
	"ar:binutils"
	"aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu"
	"/usr/aarch64-linux-gnu/lib/libc.a:libc6-dev-arm64-cross"
	"qemu-aarch64:qemu-user"
	"javac:openjdk-17-jdk-headless"
	"java:openjdk-17-jdk-headless"
	"64tass:64tass"
	"sim65:cc65"
	"wasm-ld-14:lld-14"
	"node:nodejs"
)

# missing_packages prints the packages of the missing tools, one per line.
missing_packages() {
	local pair tool pkg
	for pair in "${tools[@]}"; do
		tool=${pair%%:*}
		pkg=${pair#*:}
		case "$tool" in
		/*) [ -e "$tool" ] || echo "$pkg" ;;
		*) command -v "$tool" >/dev/null 2>&1 || echo "$pkg" ;;
		esac
	done | sort -u
}

# llvm_version checks that opt and llc are LLVM 14 (typed pointers: the
# amd64 backend's IR does not load in LLVM 17 or later).
llvm_version() {
	local v
	v=$(llc --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -1)
	if [ "$v" != "14" ]; then
		echo "setup: llc is LLVM ${v:-?}, the amd64 backend needs LLVM 14 (package llvm-14; put /usr/lib/llvm-14/bin first on PATH)" >&2
		return 1
	fi
}

# java_version checks for Java 17 or later.
java_version() {
	local v
	v=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
	if [ -z "$v" ] || [ "$v" -lt 17 ]; then
		echo "setup: java is version ${v:-?}, the tests need 17 or later (package openjdk-17-jdk-headless)" >&2
		return 1
	fi
}

if ! command -v go >/dev/null 2>&1; then
	echo "setup: go is not on PATH; install Go $(sed -n 's/^go //p' "$(dirname "$0")/go.mod") or later from the Go project's downloads" >&2
	exit 1
fi

mapfile -t pkgs < <(missing_packages)
if [ "${#pkgs[@]}" -gt 0 ]; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "setup: installing ${pkgs[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
		# Debian's llvm-14 puts unversioned names in /usr/lib/llvm-14/bin.
		if ! command -v llc >/dev/null 2>&1 && [ -x /usr/lib/llvm-14/bin/llc ]; then
			for t in opt llc llvm-objdump; do
				ln -sf "/usr/lib/llvm-14/bin/$t" "/usr/local/bin/$t"
			done
		fi
	else
		echo "setup: missing tools; install them with:" >&2
		echo "  sudo apt-get update && sudo apt-get install -y ${pkgs[*]}" >&2
		case " ${pkgs[*]} " in *" llvm-14 "*)
			echo "(then put /usr/lib/llvm-14/bin on PATH if llc and opt are still not found)" >&2 ;;
		esac
		exit 1
	fi
	mapfile -t still < <(missing_packages)
	if [ "${#still[@]}" -gt 0 ]; then
		echo "setup: still missing after installing: ${still[*]}" >&2
		exit 1
	fi
fi
llvm_version
java_version

# The third-party tools some tests run (internal/tools): one directory,
# $LOWENT_TOOLS (default ../shared/tools beside this checkout), holding
#   javacard/jc305u3_kit/            Oracle's Java Card 3.0.5u3 kit (converter,
#                                    capgen, verifier, export files): the folder
#                                    jc305u3_kit of github.com/martinpaljak/oracle_javacard_sdks
#                                    at commit 3751d774dd4e
#   javacard/jcardsim-3.0.5-SNAPSHOT.jar  jCardSim, from github.com/licel/jcardsim
#                                    (the jar committed at 53a66d6)
#   vice/                            VICE 3.10's x64sc built headless from
#                                    github.com/VICE-Team/svn-mirror at 2e86e9e5, with
#                                    the C64 ROMs of its data/C64 in vice/C64/
# They are not installed by this script; the tests that need them fail
# without them.
here=$(cd "$(dirname "$0")" && pwd)
tooldir=${LOWENT_TOOLS:-$here/../shared/tools}
for t in javacard/jc305u3_kit/lib/tools.jar javacard/jcardsim-3.0.5-SNAPSHOT.jar vice/x64sc; do
	if [ ! -e "$tooldir/$t" ]; then
		echo "setup: $tooldir/$t is missing: set LOWENT_TOOLS to the directory holding javacard/ and vice/ (the comment in setup.sh says where each comes from)" >&2
		exit 1
	fi
done
echo "setup: all tools present ($(go version | cut -d' ' -f3), LLVM 14, $(java -version 2>&1 | head -1), 64tass, sim65, wasm-ld, node $(node --version))"
