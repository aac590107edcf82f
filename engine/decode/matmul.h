#pragma once
// out = W x for a batch of activation rows, in the weight's stored type.
// The activation is first converted to the matrix's dot-product type, once
// per row (Q8_0 for Q8_0/Q4_0/Q5_0/IQ4_NL/MXFP4 weights, Q8_1 for Q4_1/Q5_1,
// Q8_K for K-quants and IQ4_XS, F16 for F16, BF16
// for BF16, unchanged for F32), exactly as llama.cpp's CPU backend does, then
// the output rows are split across the thread pool. Small products run on
// the calling thread only: below a few tens of thousands of multiply-adds,
// waking other threads costs more than it saves.

#include "engine/decode/runstate.h"
#include "engine/decode/threadpool.h"
#include "engine/decode/weights.h"

namespace ws {

// x: (tokens, w.cols) F32; out: (tokens, w.rows). Uses state's conversion buffers.
void matmul(const WeightMatrix& w, const float* x, int tokens, float* out, RunState& state, ThreadPool& pool);

// llama.cpp takes the tinyBLAS path (one 8-lane accumulator: kernels' "lanes" order) for a product of
// at least two tokens (llamafile_sgemm: "only enable sgemm for prompt processing") when the row length
// is a multiple of 8 and the row count a multiple of 4; otherwise, and always for expert slices
// (mul_mat_id), ggml_vec_dot (the "ggml" order). So one decode step's F32/F16 products are ggml_vec_dot's.
inline bool usesLaneOrder(const WeightMatrix& w, int tokens)
{
    return tokens >= 2 && !w.expertSlice && w.cols % 8 == 0 && w.rows % 4 == 0;
}

// Several matrices with the same input (Q, K, V or gate, up): the input is converted once per type.
struct MatmulJob
{
    const WeightMatrix* w;
    float* out;
};
void matmulShared(const MatmulJob* jobs, int jobCount, const float* x, int tokens, RunState& state, ThreadPool& pool);

} // namespace ws
