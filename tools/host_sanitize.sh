#!/usr/bin/env bash
# The host (cpu device) suite under AddressSanitizer + UBSan, one test file per shard,
# resumable (issue 44, docs/RELIABILITY.md "Sanitizers"). Needs a sanitizer build:
#   CUARRAY_CUDA=0 CUARRAY_SANITIZE=1 python3 setup.py build_ext --inplace
# then, from the repository root:
#   nice -n 15 bash tools/host_sanitize.sh [LOGDIR] [tests/test_x.py ...]
# LOGDIR (default /tmp/host-sanitize) gets, per shard NAME (the file's stem):
#   NAME.log   pytest's output, then "rc=N seconds=S"
#   NAME.done  the shard's result line (a shard with one is skipped on a re-run;
#              delete it, or name the file on the command line, to run it again)
#   NAME.san.PID  the sanitizer's report, if any (ASan and UBSan write there)
# and summary.txt at the end. SHARD_TIMEOUT (s, default 2400) bounds one shard,
# TEST_TIMEOUT (s, default 300) one test.
set -uo pipefail
logdir=${1:-/tmp/host-sanitize}; shift || true
mkdir -p "$logdir"; logdir=$(cd "$logdir" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
if [ $# -gt 0 ]; then files=("$@"); rerun=1; else files=(tests/test_*.py); rerun=0; fi

lib_asan=$(gcc -print-file-name=libasan.so); lib_ubsan=$(gcc -print-file-name=libubsan.so)
if [ "$(nm -D python/cuarray/_core*.so 2>/dev/null | grep -c __asan_init)" = 0 ]; then
    echo "python/cuarray/_core*.so is not a sanitizer build (CUARRAY_SANITIZE=1)"; exit 2
fi
# detect_leaks=0: CPython keeps its interned objects and caches to the end, so
# LeakSanitizer would report them at every exit. allocator_may_return_null=1: tests
# ask for impossible sizes on purpose and expect MemoryError, not an ASan abort.
# abort_on_error=1: abort() lets pytest's faulthandler print the Python stack (the
# test that hit the error). UBSan's checks are built with -fno-sanitize-recover; next
# to ASan it writes to stderr whatever its log_path says, hence --capture=sys below:
# pytest's default fd capture would swallow a report whose abort ends the process.
asan_opts="detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:disable_coredump=1"
ubsan_opts="print_stacktrace=1:halt_on_error=1:abort_on_error=1"

counts() {  # passed failed skipped errors out of pytest's last summary line
    local line; line=$(grep -E "^(=+ )?[0-9]+ (passed|failed|skipped|error|deselected)" "$1" | tail -n 1)
    for w in passed failed skipped error; do
        n=$(grep -oE "[0-9]+ $w" <<< "$line" | grep -oE "[0-9]+"); printf "%s " "${n:-0}"
    done
}

for f in "${files[@]}"; do
    name=$(basename "$f" .py)
    [ "$rerun" = 0 ] && [ -e "$logdir/$name.done" ] && continue
    rm -f "$logdir/$name".san.* "$logdir/$name.done"
    t=$(date +%s)
    LD_PRELOAD="$lib_asan:$lib_ubsan" \
        ASAN_OPTIONS="$asan_opts:log_path=$logdir/$name.san" \
        UBSAN_OPTIONS="$ubsan_opts:log_path=$logdir/$name.san" \
        PYTHONPATH=python timeout -k 30 "${SHARD_TIMEOUT:-2400}" \
        python3 -m pytest "$f" -q -p no:cacheprovider --capture=sys \
        --timeout="${TEST_TIMEOUT:-300}" \
        > "$logdir/$name.log" 2>&1
    rc=$?; s=$(( $(date +%s) - t ))
    echo "rc=$rc seconds=$s" >> "$logdir/$name.log"
    read -r p fl sk er <<< "$(counts "$logdir/$name.log")"
    san=$(cat "$logdir/$name".san.* "$logdir/$name.log" 2>/dev/null \
        | grep -cE "ERROR: AddressSanitizer|runtime error:")
    # no summary line: the process died (a sanitizer abort, a crash, the timeout)
    grep -qE "^(=+ )?[0-9]+ (passed|failed|skipped|error|deselected)" "$logdir/$name.log" \
        || rc="$rc,died"
    echo "$name rc=$rc passed=$p failed=$fl skipped=$sk errors=$er sanitizer=$san seconds=$s" \
        | tee "$logdir/$name.done"
done

# the summary over every shard done so far (this run's and earlier runs')
{
    echo "host suite under ASan+UBSan: $(git -C "$root" rev-parse --short HEAD), $(date -u +%F)"
    awk '{for (i = 2; i <= NF; i++) {split($i, kv, "="); sum[kv[1]] += kv[2]}
          if ($2 != "rc=0" && $2 != "rc=1" && $2 != "rc=5") bad = bad " " $1 "(" $2 ")"}
         END {printf "shards %d: passed %d, failed %d, skipped %d, errors %d, %d s\n",
              NR, sum["passed"], sum["failed"], sum["skipped"], sum["errors"], sum["seconds"]
              print "shards that crashed or were cut:" (bad == "" ? " none" : bad)}' \
        "$logdir"/*.done
    echo "sanitizer reports by kind:"
    cat "$logdir"/*.san.* "$logdir"/*.log 2>/dev/null \
        | grep -oE "ERROR: AddressSanitizer: [a-z-]+|runtime error: [a-z ]+" | sort | uniq -c
    echo "failed tests:"
    grep -hE "^(FAILED|ERROR) " "$logdir"/*.log | cut -c1-200
} | tee "$logdir/summary.txt"
