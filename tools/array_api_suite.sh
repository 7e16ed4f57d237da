#!/usr/bin/env bash
# The official Array API conformance suite (data-apis/array-api-tests) on cuarray, at
# the standard's 2024.12, on one device, with fixed Hypothesis settings so that two
# runs (two devices, or cuarray and the reference) compare test by test.
#
#   ARRAY_API_TESTS_DIR=../array-api-tests tools/array_api_suite.sh [DEVICE] [pytest args]
#
# DEVICE: cpu (default) or cuda:N, cuarray's default device for the run
# (CUARRAY_DEVICE). MODULE=array_api_strict runs the reference implementation
# instead. ARRAY_API_TESTS_DIR: a clone with its array-api submodule
# (git clone --recursive), checked out at the pinned commit below (its CI runs
# array-api-strict at 2024.12); another commit runs with a warning. Needs pytest,
# pytest-json-report, hypothesis, ndindex (and array-api-strict for the reference).
# Prints pytest's summary line (passed, failed, skipped) and the failed test ids.
set -uo pipefail
PIN=d9428097ced3a338a66de058ad5a639b64348aec
DIR=${ARRAY_API_TESTS_DIR:?set ARRAY_API_TESTS_DIR to a checkout of array-api-tests}
DEVICE=${1:-cpu}; [ $# -gt 0 ] && shift
REPO=$(cd "$(dirname "$0")/.." && pwd)
at=$(git -C "$DIR" rev-parse HEAD 2>/dev/null || echo unknown)
[ "$at" = "$PIN" ] || echo "warning: $DIR is at $at, not the pinned $PIN"
export ARRAY_API_TESTS_MODULE=${MODULE:-cuarray} ARRAY_API_TESTS_VERSION=2024.12
export ARRAY_API_STRICT_API_VERSION=2024.12 CUARRAY_DEVICE=$DEVICE
export PYTHONPATH="$REPO/python${PYTHONPATH:+:$PYTHONPATH}"
log=$(mktemp)
( cd "$DIR" && nice -n 10 python3 -m pytest array_api_tests -q -p no:cacheprovider \
    --max-examples="${MAX_EXAMPLES:-20}" --derandomize --disable-deadline \
    -rf "$@" ) > "$log" 2>&1
rc=$?
grep -E '^FAILED ' "$log" | sed 's/ - .*//' | sort
echo "$ARRAY_API_TESTS_MODULE on $DEVICE, suite $at: $(tail -n 1 "$log")"
rm -f "$log"
exit $rc
