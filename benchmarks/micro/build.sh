#!/usr/bin/env bash
# Session 9's micro-benchmarks (results: benchmarks/results/h200-2026-12-02-s9-micro.txt):
# add.outer store tiles, add.at with a fused index check, and int64 sort policies
# through cub::DispatchRadixSort, outside the library, in one binary. Needs nvcc; run
# `./s9_micro outer|at|sort|all` on the GPU machine. Variants: name OT OI HT HI HP STORE RB
# (onesweep threads / nominal 4-byte items, histogram threads / items / parts, store
# algorithm D or A, radix bits).
set -euo pipefail
cd "$(dirname "$0")"
NVCC="nvcc -O3 -std=c++17 -arch=sm_90"
variants="o384_30 384 30 128 16 1 D 8
o512_22 512 22 128 16 1 D 8
o256_44 256 44 128 16 1 D 8
o320_36 320 36 128 16 1 D 8
o256_34 256 34 128 16 1 D 8
o384_24 384 24 128 16 1 D 8
o448_26 448 26 128 16 1 D 8
o512_20 512 20 128 16 1 D 8
o640_16 640 16 128 16 1 D 8
o384_30_aligned 384 30 128 16 1 A 8
o256_40 256 40 128 16 1 D 8
o768_14 768 14 128 16 1 D 8
h256_16_1 384 30 256 16 1 D 8
h128_32_1 384 30 128 32 1 D 8
h128_16_8 384 30 128 16 8 D 8
h512_8_1 384 30 512 8 1 D 8
h256_8_4 384 30 256 8 4 D 8
r9_o384_30 384 30 128 16 1 D 9
r9_o512_20 512 20 128 16 1 D 9
r9_o256_40 256 40 128 16 1 D 9"
mkdir -p obj; : > obj/variants.h; : > obj/variants_r9.h
while read -r name ot oi ht hi hp st rb; do
    store=cub::RADIX_SORT_STORE_DIRECT; [ "$st" = A ] && store=cub::RADIX_SORT_STORE_ALIGNED
    $NVCC -c sort_policy.cu -o "obj/sv_$name.o" -DOT="$ot" -DOI="$oi" -DHT="$ht" -DHI="$hi" \
        -DHP="$hp" -DSTORE="$store" -DRB="$rb" -DNAME="sv_$name" &
    case $name in r9_*) echo "SV(sv_$name)" >> obj/variants_r9.h ;; *) echo "SV(sv_$name)" >> obj/variants.h ;; esac
done <<< "$variants"
wait
$NVCC -Iobj -o s9_micro s9_micro.cu obj/sv_*.o
