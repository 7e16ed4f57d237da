#!/usr/bin/env bash
# Build the CPU emulation of the GPU reduction kernels and compare them with the
# host loops over every (op, in, out) pair and many layouts:
#   tests/c/reduce_emu/build.sh [BUILD_DIR] && BUILD_DIR/driver [level]
# EMU_BLOCK (default 256, the real block size; 64 runs 4x faster) and EMU_SMS
# (the SM count the plans see, default 2) pick the configuration. Needs g++ >= 10.
# EMU_DUMP=FILE makes the driver append every GPU and host result to FILE, so two
# builds (before and after a change) can be compared bitwise with cmp.
# A developer tool (minutes to run), not part of the pytest suite. fuse_build.sh
# then builds and runs the fused sum's emulation (fuse_driver.cpp) on these objects.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
K="$here/../../../kernels"
B="${1:-/tmp/ca_reduce_emu}"
mkdir -p "$B/gen" "$B/obj" "$B/red"
python3 "$here/../../../tools/gen_reductions.py" --out "$B/red"
python3 "$here/gen.py" "$B/gen" "$B/red"
FL="-std=c++20 -O1 -g -D__CUDACC__ -DCA_HAVE_CUDA=1 -DEMU_BLOCK=${EMU_BLOCK:-256} \
    -I$here/inc -I$B/gen -I$K -I$K/shared -I$K/gpu -I$K/dispatch -I$K/host -I$B/red \
    -Wall -Wno-unused-function -Wno-unknown-pragmas"
for f in "$B"/gen/*.cpp "$here/driver.cpp" "$here/emu_rt.cpp"; do
    g++ $FL -c "$f" -o "$B/obj/$(basename "$f" .cpp).o" &
done
for f in "$K/host/host_reduce.c" "$K/host/host_minmax.c" "$K/host/host_mask.c" \
         "$K/host/host_truth.c" "$K/host/host_threads.c" \
         "$K/dispatch/dispatch_reduce.c" "$K/shared/dtypes.c" \
         "$B/red/red_host.c" "$B/red/red_table.c"; do
    gcc -std=c11 -O1 -g -DCA_HAVE_CUDA=1 -I"$K" -I"$K/shared" -I"$K/host" -I"$K/dispatch" \
        -I"$B/red" -c "$f" \
        -o "$B/obj/$(basename "$f" .c).o" &
done
wait
g++ "$B"/obj/*.o -o "$B/driver" -lpthread
echo "built $B/driver"
