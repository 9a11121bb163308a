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
  golang-go                  # go tool pprof reads convert --to pprof (tests/compat/convert_pprof)
  nodejs                     # JIT perf maps: node --perf-basic-prof; npm for tests/js
  chromium                   # headless browser tests (the html flame graph, the speedscope app)
)
# The browser and schema tests' npm packages (tests/js/package.json, pinned
# by its package-lock.json: speedscope, ajv, puppeteer-core), installed
# into tests/js/node_modules; again only when the lock file changed.
npm_deps() {
  local js
  js="$(cd "$(dirname "$0")/.." && pwd)/tests/js"
  [ "$js/node_modules/.package-lock.json" -nt "$js/package-lock.json" ] && return 0
  if ! command -v npm >/dev/null; then
    echo "perfev: npm is missing (Debian: nodejs); then run: npm ci --prefix $js" >&2
    return 1
  fi
  echo "perfev: installing tests/js's npm packages" >&2
  npm ci --prefix "$js" --no-audit --no-fund --ignore-scripts >&2
}
missing=()
for p in "${PKGS[@]}"; do
  st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$st" = installed ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then npm_deps; exit; fi
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
npm_deps
