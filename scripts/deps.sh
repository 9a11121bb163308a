#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages perfev needs.  As root it runs apt-get;
# otherwise it prints the exact command.  Quiet and fast when nothing is
# missing.
#   scripts/deps.sh build   what `make`, `make install` and `make demo` need
#                           (the compiler, the libraries, scdoc for the man pages)
#   scripts/deps.sh check   that, plus what the tests, benchmarks and fuzzers
#                           run: perf, the consumers of our output (Go's pprof,
#                           chromium, node and tests/js's npm packages), valgrind,
#                           the arm64 cross toolchain and qemu, man page linters
#                           (the default)
set -eu
set_=${1:-check}
case "$set_" in
  build|check) ;;
  *) echo "usage: scripts/deps.sh [build|check]" >&2; exit 2;;
esac
PKGS=(
  gcc g++ make pkg-config    # g++: the C++ region example that `make` builds
  binutils                   # its dependency libbinutils brings libbfd-*.so (C++ demangling, dlopen'd)
  libelf-dev libdw-dev libtraceevent-dev libpfm4-dev libzstd-dev zlib1g-dev
  libbz2-dev liblzma-dev     # static link of the CLI (libdw.a needs them)
  scdoc                      # man/*.scd -> man pages
)
[ "$set_" = check ] && PKGS+=(
  python3                    # programs the compatibility tests record with perf
  clang libclang-rt-dev      # libFuzzer harnesses (make fuzz)
  lld                        # clang -fuse-ld=lld (tests/compat/lang_clang_lld_dwarf)
  linux-perf                 # the oracle for compatibility tests and benches
  hyperfine bc               # benchmarks
  valgrind                   # make check-valgrind
  passwd                     # useradd, for the unprivileged permission tests
  strace util-linux          # tests/fault: injected syscall failures; unshare
  debuginfod                 # a debuginfod server for tests/compat/debuginfod_script
  libdebuginfod1             # loaded with dlopen() when DEBUGINFOD_URLS is set
  golang-go                  # go tool pprof reads convert --to pprof (tests/compat/convert_pprof)
  nodejs                     # JIT perf maps: node --perf-basic-prof
  chromium                   # headless browser tests (the html flame graph, the speedscope app)
  groff-base mandoc man-db   # tests/meta/man_render: groff -ww, mandoc -T lint, man -l
  bash-completion            # tests/meta/completion
  # make ARCH=arm64 / make check-arm64: the cross compiler, qemu-user, and
  # the arm64 multiarch libraries (libc6:arm64 puts the loader where qemu
  # finds it); dpkg needs the arm64 architecture added for the :arm64 ones
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user
  libc6-dev:arm64 libelf-dev:arm64 libdw-dev:arm64 libtraceevent-dev:arm64
  libzstd-dev:arm64 zlib1g-dev:arm64 libbz2-dev:arm64 liblzma-dev:arm64 libpfm4-dev:arm64
)
# rustc for the Rust compat tests (lang_rust_*, convert_folded_names):
# rustup's (~/.cargo/bin, 1.90+ links with rust-lld by default) where the
# machine has it, else Debian's (1.63, GNU ld; the tests then link with
# -fuse-ld=lld themselves).
[ "$set_" = check ] && ! command -v rustc >/dev/null && [ ! -x "${HOME:-/root}/.cargo/bin/rustc" ] && PKGS+=(rustc)
# npm for tests/js, from Debian unless a Node.js install brought its own
# (NodeSource's nodejs ships npm and conflicts with Debian's package).
[ "$set_" = check ] && ! command -v npm >/dev/null && PKGS+=(npm)
# The browser and schema tests' npm packages (tests/js/package.json, pinned
# by its package-lock.json: speedscope, ajv, puppeteer-core), installed
# into tests/js/node_modules; again only when the lock file changed.
npm_deps() {
  local js
  [ "$set_" = check ] || return 0
  js="$(cd "$(dirname "$0")/.." && pwd)/tests/js"
  [ "$js/node_modules/.package-lock.json" -nt "$js/package-lock.json" ] && return 0
  if ! command -v npm >/dev/null; then
    echo "perfev: npm is missing (Debian: nodejs); then run: npm ci --prefix $js" >&2
    return 1
  fi
  echo "perfev: installing tests/js's npm packages" >&2
  npm ci --prefix "$js" --no-audit --no-fund --ignore-scripts >&2
}
# Installed: the package itself, or its native-architecture copy (a
# Multi-Arch: same package installed for arm64 too prints one line each).
native=$(dpkg --print-architecture 2>/dev/null || echo amd64)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${binary:Package} ${db:Status-Status}\n' "$p" 2>/dev/null |
    grep -qx -e "$p installed" -e "$p:$native installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then npm_deps; exit; fi
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
# An :arm64 package needs dpkg to know the architecture (multiarch).
add_arch=
case " ${missing[*]}" in
  *:arm64*) dpkg --print-foreign-architectures 2>/dev/null | grep -qx arm64 || add_arch=1;;
esac
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "perfev: missing packages: ${missing[*]}" >&2
  [ -n "$add_arch" ] && cmd="dpkg --add-architecture arm64 && apt-get update && $cmd" ||
    cmd="apt-get update && $cmd"
  echo "perfev: run as root:  $cmd" >&2
  exit 1
fi
echo "perfev: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if [ -n "$add_arch" ]; then
  echo "perfev: dpkg --add-architecture arm64 (for the arm64 cross-build libraries)" >&2
  dpkg --add-architecture arm64
fi
# apt checks signatures as user _apt, which must be able to write
# /dev/null: with another mode gpgv fails and apt says "gpgv ... required".
nullmode=$(stat -c %a /dev/null 2>/dev/null || echo '?')
if [ -c /dev/null ] && [ "$nullmode" != 666 ]; then
  echo "perfev: /dev/null has mode $nullmode (apt's signature check needs 666): chmod 666 /dev/null" >&2
  chmod 666 /dev/null
fi
apt-get update -qq >&2 || true
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
npm_deps
