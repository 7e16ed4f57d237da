#!/usr/bin/env bash
# On the GPU machine, before tools/gpu_run.sh in the same call: build an earlier
# version of cuarray (a `git archive` tarball) into its own directory and run the
# benchmark cases named by BENCH_K with it, so that "before" and "after" come from one
# machine instance. Results go to $OUT/before.{md,json} and $OUT/before-bench.log.
#   git archive -o before.tar <commit>   (on the development machine; carry before.tar)
#   BENCH_K="a + b|..." bash tools/gpu_before.sh before.tar
set -uo pipefail
tar=${1:?usage: gpu_before.sh TARBALL}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
src=/tmp/cuarray-before; site=/tmp/cuarray-before-site
rm -rf "$src" "$site"; mkdir -p "$src"
tar -xf "$tar" -C "$src"
t=$(date +%s)
( cd "$src" && CUARRAY_CUDA_ARCH=${CUARRAY_CUDA_ARCH:-90} python3 -m pip install \
    --no-build-isolation --no-deps --target "$site" . > "$OUT/before-build.log" 2>&1 ) \
    || { tail -n 30 "$OUT/before-build.log"; echo "BEFORE BUILD FAILED"; exit 1; }
echo "before build: $(( $(date +%s) - t )) s"
( cd /tmp && PYTHONPATH="$site" timeout ${BENCH_TIMEOUT:-300} python3 "$src/benchmarks/run.py" \
    --out /tmp/before-bench ${BENCH_K:+-k "$BENCH_K"} ${BENCH_AREAS:-} 2>&1 ) > "$OUT/before-bench.log"
echo "before bench rc=$?"
cp /tmp/before-bench/results.md "$OUT/before.md" 2>/dev/null
cp /tmp/before-bench/results.json "$OUT/before.json" 2>/dev/null
cat "$OUT/before.md" 2>/dev/null | head -40
