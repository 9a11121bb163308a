#!/usr/bin/env bash
# Install every Debian package that perfev's build, tests, benchmarks and
# fuzzers need.  As root it runs apt-get; otherwise it prints the command.
# Quiet and fast when nothing is missing.
set -eu
PKGS=(
  gcc make pkg-config
  binutils                   # its dependency libbinutils brings libbfd-*.so (C++ demangling, dlopen'd)
  g++ python3                # programs the compatibility tests record with perf
  libelf-dev libdw-dev libtraceevent-dev libpfm4-dev libzstd-dev zlib1g-dev
  libbz2-dev liblzma-dev     # static link of the CLI (libdw.a needs them)
  clang libclang-rt-dev      # libFuzzer harnesses (make fuzz)
  linux-perf                 # the oracle for compatibility tests and benches
  hyperfine bc               # benchmarks
  valgrind                   # make check-valgrind
  passwd                     # useradd, for the unprivileged permission tests
  strace util-linux          # tests/fault: injected syscall failures; unshare
  debuginfod                 # a debuginfod server for tests/compat/debuginfod_script
  libdebuginfod1             # loaded with dlopen() when DEBUGINFOD_URLS is set
  nodejs                     # JIT perf maps: node --perf-basic-prof; drives chromium
  chromium                   # the HTML flame graph tested in a real browser (headless)
)
missing=()
for p in "${PKGS[@]}"; do
  st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$st" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "perfev: missing packages: ${missing[*]}" >&2
  echo "perfev: run as root:  apt-get update && $cmd" >&2
  exit 1
fi
echo "perfev: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || true
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
