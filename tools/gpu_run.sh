#!/usr/bin/env bash
# One full pass on the GPU machine (device tool): build, test with the cuda device,
# optionally benchmark. Logs go to $OUT (they come back with the call).
#   bash tools/gpu_run.sh [test|bench|all] [pytest args...]
set -uo pipefail
what=${1:-all}; shift || true
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUARRAY_CUDA_ARCH=${CUARRAY_CUDA_ARCH:-90}
nvidia-smi --query-gpu=name,memory.used,memory.total,clocks.sm --format=csv,noheader | tee "$OUT/gpu.txt"
# the GPU machine has no network: packages it lacks travel as wheels in .gpu_wheels/
# (carried by the device call; e.g. pip download --python-version 3.12 --only-binary=:all:
# "dask[array,distributed]" -d .gpu_wheels), installed without an index
if [ -d .gpu_wheels ] && ! python3 -c "import distributed" 2>/dev/null; then
    python3 -m pip install -q --no-index --find-links .gpu_wheels "dask[array,distributed]" \
        && echo "installed from .gpu_wheels: $(python3 -c 'import dask, distributed; print("dask", dask.__version__, "distributed", distributed.__version__)')"
fi
t=$(date +%s)
if [ -n "${SKIP_BUILD:-}" ]; then
    echo "build: skipped (SKIP_BUILD)"
elif ! python3 -m pip install --no-build-isolation --no-deps -v . > "$OUT/build.log" 2>&1; then
    tail -n 60 "$OUT/build.log"; echo "BUILD FAILED"; exit 1
else
    grep -E "^cuarray:|^nvcc " "$OUT/build.log" | tail -n 30
    echo "build: $(( $(date +%s) - t )) s"
fi
cd /tmp && python3 -c "import cuarray; cuarray.show_config()" 2>&1 | tee "$OUT/config.txt"; cd - >/dev/null
if [ "$what" = test ] || [ "$what" = all ]; then
    # failnames.txt names each failure as it happens: a run the time limit cuts
    # never prints pytest's summary
    ( cd /tmp && FAILNAMES="$OUT/failnames.txt" PYTHONPATH="$OLDPWD/tools${PYTHONPATH:+:$PYTHONPATH}" \
        timeout ${TEST_TIMEOUT:-400} python3 -m pytest "$OLDPWD/tests" -q -p no:cacheprovider -p pytest_failnames \
        -n ${XDIST:-8} --durations=25 \
        --timeout=120 -o faulthandler_timeout=100 -m "not big_memory" "$@" 2>&1 ) > "$OUT/pytest.log"
    echo "pytest rc=$?"; tail -n 40 "$OUT/pytest.log"
    [ -s "$OUT/failnames.txt" ] && { echo "failed (as they happened):"; sort -u "$OUT/failnames.txt" | head -n 60; }
    # big_memory tests need most of the card: one process, after the others are done
    ( cd /tmp && timeout ${BIG_TIMEOUT:-200} python3 -m pytest "$OLDPWD/tests" -q -p no:cacheprovider \
        --timeout=180 -m big_memory "$@" 2>&1 ) > "$OUT/pytest-big.log"
    echo "pytest big_memory rc=$?"; tail -n 5 "$OUT/pytest-big.log"
fi
if [ -n "${SANITIZE:-}" ]; then
    # compute-sanitizer memcheck over a slice of the suite (every kernel family); the
    # paths in SANITIZE are relative to the repository root.
    san_paths=(); for p in $SANITIZE; do san_paths+=("$PWD/$p"); done
    ( cd /tmp && timeout ${SAN_TIMEOUT:-120} compute-sanitizer --tool ${SAN_TOOL:-memcheck} --error-exitcode 9 \
        python3 -m pytest "${san_paths[@]}" ${SANITIZE_K:+-k "$SANITIZE_K"} -q -p no:cacheprovider -x 2>&1 ) > "$OUT/memcheck.log"
    echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|passed|failed|Invalid" "$OUT/memcheck.log" | tail -n 8
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
    ( cd /tmp && timeout ${BENCH_TIMEOUT:-300} python3 "$OLDPWD/benchmarks/run.py" --out "$OUT/bench" ${BENCH_K:+-k "$BENCH_K"} ${BENCH_AREAS:-} 2>&1 ) > "$OUT/bench.log"
    echo "bench rc=$?"; tail -n 60 "$OUT/bench.log"
fi
