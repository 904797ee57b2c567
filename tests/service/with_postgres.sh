#!/usr/bin/env bash
# Runs a command with ZKPIPE_TEST_POSTGRES_URL naming a throwaway PostgreSQL 15,
# stopped and removed afterwards; exit 77 (skipped) where PostgreSQL 15 is not
# installed (scripts/install-deps.sh installs it).
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib/postgres.sh"
if ! pg_available; then
  echo "with_postgres: PostgreSQL 15 is not installed ($pg_bin)" >&2
  exit 77
fi
trap pg_destroy EXIT
pg_create
ZKPIPE_TEST_POSTGRES_URL=$pg_url "$@"
