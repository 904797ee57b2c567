#!/usr/bin/env bash
# Installs the Debian packages zkpipe builds and tests with. Idempotent and quick
# when everything is present: apt-get runs only for what is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libtbb-dev libgmp-dev libgtest-dev libgmock-dev libbenchmark-dev
  libxxhash-dev libcli11-dev nlohmann-json3-dev
  # Boost.Container's small_vector (header-only): the constraint system's linear
  # combinations (src/r1cs/linear_combination.hpp).
  libboost-dev
  python3
  # scripts/fuzz.sh: clang with libFuzzer and the sanitizer runtimes; 16, since
  # Debian 12's default clang 14 cannot compile src/ (lambdas capturing structured
  # bindings); llvm-16 for llvm-symbolizer (stack traces of findings). ninja is the
  # builds' generator (scripts/build.sh, scripts/sanitize.sh).
  clang-16 libclang-rt-16-dev llvm-16 ninja-build
  # zkpipe serve / client (src/service): gRPC + protobuf (code generated from
  # proto/zkpipe/v1/zkpipe.proto), SQLite for the durable job queue, toml++ for the
  # configuration file, cpp-httplib for HTTP GET /metrics.
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libsqlite3-dev libtomlplusplus-dev libcpp-httplib-dev
  # tests/cli/python_client.sh: docs/python_client.py, with stubs from the protoc that
  # python3-grpc-tools bundles (older than protobuf-compiler's: no proto3 `optional`);
  # tests/cli/service_load.sh holds hundreds of streams open from one Python process.
  python3-grpcio python3-grpc-tools
  # Cluster mode (`zkpipe serve --queue postgresql://…`): libpqxx for the shared job
  # queue; the PostgreSQL 15 server that tests/cli/cluster (scripts/cluster-demo.sh)
  # starts in a temporary directory.
  libpqxx-dev postgresql-15
)

# Node.js and npm run the snarkjs interoperability tests. Any existing install
# (e.g. NodeSource's nodejs, which bundles npm) will do; else Debian's packages.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "zkpipe: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "zkpipe: need root to install packages (run as root or with sudo)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
