#!/usr/bin/env bash
# On the GPU machine, after cuarray is installed (tools/gpu_run.sh): compute-sanitizer
# over several groups of test files at once, one sanitizer process per group, so that
# every kernel family gets its pass inside one device call. Logs: $OUT/san-NAME.log.
#   SANITIZE_K="cuda and not fork" bash tools/gpu_sanitize.sh \
#       elementwise=memcheck:tests/test_elementwise.py \
#       sort-race=racecheck:tests/test_sort.py,tests/test_search.py
# Each group is NAME=TOOL[*N]:PATH[,PATH...][:K]: N pytest-xdist workers under the one
# sanitizer process (it follows child processes), K the group's own -k in place of
# SANITIZE_K. SAN_TIMEOUT (s) bounds each group. Prints one line per group: the tool's
# error summary and pytest's counts (or, when the timeout cut it, the tests run so far).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
root=$PWD
pids=()
for spec in "$@"; do
    name=${spec%%=*}; rest=${spec#*=}
    tool=${rest%%:*}; rest=${rest#*:}
    workers=1; [ "$tool" != "${tool#*\*}" ] && { workers=${tool#*\*}; tool=${tool%%\**}; }
    xd=(); [ "$workers" -gt 1 ] && xd=(-n "$workers")
    paths=${rest%%:*}; k=${SANITIZE_K:-}
    [ "$rest" != "$paths" ] && k=${rest#*:}
    args=(); IFS=, read -ra files <<< "$paths"
    for f in "${files[@]}"; do args+=("$root/$f"); done
    ( cd /tmp && timeout "${SAN_TIMEOUT:-300}" compute-sanitizer --tool "$tool" \
        --error-exitcode 9 python3 -m pytest "${args[@]}" ${k:+-k "$k"} "${xd[@]}" -q \
        -p no:cacheprovider > "$OUT/san-$name.log" 2>&1; echo "rc=$?" >> "$OUT/san-$name.log" ) &
    pids+=($!)
done
wait "${pids[@]}"
for spec in "$@"; do
    name=${spec%%=*}; log=$OUT/san-$name.log
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
    counts=$(grep -E "passed|failed|error" "$log" | grep -v "ERROR SUMMARY" | tail -n 1)
    [ -z "$counts" ] && counts="cut: $(grep -E '^[.FEsx]+ *\[' "$log" | tr -cd '.' | wc -c) passed so far, $(grep -E '^[.FEsx]+ *\[' "$log" | tr -cd 'FE' | wc -c) failed"
    echo "$name: ${summary:-no summary} | ${counts:-no counts} | $(tail -n 1 "$log")"
done
