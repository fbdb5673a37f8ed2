#!/usr/bin/env bash
# (issue 14) The fifth survey's bf16 rows below 0.85× (152×8680×8880 0.81×, 1008×2072×7104 0.84×),
# where fp16 ran 1.03× and 1.16×: cuBLAS's bf16 kernels beat its fp16 ones there. Device calls in
# parts, logs under $OUT:
#   names   cuBLAS's kernels at both shapes, fp16 and bf16 (Nsight Compute's launch statistics)
#   three   cuBLAS's bf16 form at 152×8680×8880 — 192 of N by 2 tiles of 80 of M, clusters of 4 along
#           N by 2 along M — as 06's three consumers' swapped tiles of 192 of N by 2 tiles of BN of M
#           (BN = 16 · cdiv(M, 32): 80, 96, 112, 128) in 2 × 2 and in pairs along M (sharing B's
#           columns), at the most stages each fits, beside the pick, on scripts/shapes/three_two_m_BN.txt
#           (M of 129–256, drawn at random), THREE_PRECISIONS (bf16 fp16), each ladder under THREE_S
#           seconds (75): 8 ladders may reach the device's 600 s a call — one precision a call
#   OUT=out THREE_PRECISIONS=bf16 bash scripts/gpu_bf16_gaps.sh names three
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  names)
    for p in fp16 bf16; do
      for shape in "152 8680 8880" "1008 2072 7104"; do echo "$p $shape:"; cublas_kernel "$shape" "${p}_${shape// /x}" $p; done
    done ;;
  three)
    s3=SWAP_AB=1,CONSUMERS=3
    for p in ${THREE_PRECISIONS:-bf16 fp16}; do
      for bn in 80 96 112 128; do
        st=$($PY -c "from tcraw import kernels; print(kernels.wgmma_max_stages(3, $bn, swap=True))")
        ladder $p three_${bn}_$p ${THREE_S:-75} 420 scripts/shapes/three_two_m_$bn.txt picked \
          $s3,BN=$bn,CLUSTER=4,SHARE_A=1,STAGES=$st $s3,BN=$bn,CLUSTER=2,SHARE_A=1,STAGES=$st
      done
    done ;;
  esac
done
