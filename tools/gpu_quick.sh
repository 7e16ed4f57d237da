#!/usr/bin/env bash
# A short GPU pass when little device time is left: build, then only the named test
# files (cuda cases) for whatever time remains of BUDGET seconds after the build.
#   BUDGET=280 bash tools/gpu_quick.sh tests/test_a.py tests/test_b.py ...
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; R=$PWD
export PYTHONUNBUFFERED=1 CUARRAY_CUDA_ARCH=${CUARRAY_CUDA_ARCH:-90}
t0=$(date +%s)
python3 -m pip install --no-build-isolation --no-deps -v . > "$OUT/build.log" 2>&1 \
    || { tail -n 40 "$OUT/build.log"; echo "BUILD FAILED"; exit 1; }
left=$(( ${BUDGET:-280} - ($(date +%s) - t0) )); [ $left -lt 15 ] && left=15
echo "build: $(( $(date +%s) - t0 )) s; tests get $left s"
files=(); for f in "$@"; do files+=("$R/$f"); done
( cd /tmp && FAILNAMES="$OUT/failnames.txt" PYTHONPATH="$R/tools" timeout $left \
    python3 -m pytest "${files[@]}" -q -p no:cacheprovider -p pytest_failnames -n ${XDIST:-15} \
    -k "${K:-not cpu}" -rfE --timeout=40 2>&1 ) > "$OUT/pytest.log"
echo "pytest rc=$?"; grep -E "passed|failed" "$OUT/pytest.log" | tail -n 3
[ -s "$OUT/failnames.txt" ] && sort -u "$OUT/failnames.txt" | head -n 60
exit 0
