#!/usr/bin/env bash
# Build and run the CPU emulation of the fused sum against the plain path
# (fuse_driver.cpp), over the objects build.sh made in BUILD_DIR:
#   tests/c/reduce_emu/build.sh B && tests/c/reduce_emu/fuse_build.sh B
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
R="$(cd "$here/../../.." && pwd)"
K="$R/kernels"
B="${1:-/tmp/ca_reduce_emu}"
mkdir -p "$B/ops" "$B/gen_fuse" "$B/fobj"
python3 "$R/tools/gen_ops.py" --out "$B/ops" --py-out "$B/ops/_generated_ops.py" > /dev/null
python3 "$here/fuse_gen.py" "$B/gen_fuse" "$B/ops"
INC="-I$here/inc -I$B/gen_fuse -I$B/gen -I$K -I$K/shared -I$K/gpu -I$K/dispatch -I$K/host -I$B/red -I$B/ops"
FL="-std=c++20 -O1 -g -D__CUDACC__ -DCA_HAVE_CUDA=1 -DEMU_BLOCK=${EMU_BLOCK:-256} $INC \
    -Wall -Wno-unused-function -Wno-unknown-pragmas"
g++ $FL -c "$B/gen_fuse/ew_fuse.cpp" -o "$B/fobj/ew_fuse.o" &
g++ $FL -c "$here/fuse_driver.cpp" -o "$B/fobj/fuse_driver.o" &
g++ $FL -c "$here/emu_rt.cpp" -o "$B/fobj/emu_rt.o" &
for f in "$K/dispatch/dispatch_fuse.c" "$B/ops/ew_table.c"; do
    gcc -std=c11 -O1 -g -DCA_HAVE_CUDA=1 $INC -c "$f" -o "$B/fobj/$(basename "$f" .c).o" &
done
wait
objs=$(ls "$B"/obj/*.o | grep -v -e /driver.o -e /emu_rt.o)
# ew_table.c names every host loop; the driver calls none of them (it reads the
# table's op, loop and fuse-slot rows only), so they stay unresolved
g++ $objs "$B"/fobj/*.o -o "$B/fuse_driver" -lpthread -lm \
    -Wl,--unresolved-symbols=ignore-in-object-files
"$B/fuse_driver"
