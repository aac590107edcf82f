#include "engine/decode/matmul.h"

#include "engine/decode/cputypetraits.h"
#include "engine/decode/kernels.h"

#include <algorithm>
#include <atomic>

namespace ws {

namespace {

constexpr int64_t kParallelThreshold = 1 << 17; // multiply-adds below which one thread does the work

// Converts the activation rows for `in`; returns the converted rows and their stride in bytes.
const uint8_t* convertInput(DotInput in, const float* x, int tokens, int cols, RunState& s, size_t& strideBytes)
{
    switch (in) {
    case DotInput::F32:
        strideBytes = size_t(cols) * sizeof(float);
        return reinterpret_cast<const uint8_t*>(x);
    case DotInput::F16:
    case DotInput::Bf16:
        strideBytes = size_t(cols) * sizeof(uint16_t);
        for (int t = 0; t < tokens; ++t) {
            if (in == DotInput::F16)
                kernels::convertRowF16(x + size_t(t) * cols, s.act16.data() + size_t(t) * cols, cols);
            else
                kernels::convertRowBf16(x + size_t(t) * cols, s.act16.data() + size_t(t) * cols, cols);
        }
        return reinterpret_cast<const uint8_t*>(s.act16.data());
    case DotInput::Q8_0:
        strideBytes = size_t(cols / 32) * sizeof(BlockQ8_0);
        for (int t = 0; t < tokens; ++t)
            kernels::quantizeRowQ8_0(x + size_t(t) * cols, s.actQ8_0.data() + size_t(t) * (cols / 32), cols);
        return reinterpret_cast<const uint8_t*>(s.actQ8_0.data());
    case DotInput::Q8_1:
        strideBytes = size_t(cols / 32) * sizeof(BlockQ8_1);
        for (int t = 0; t < tokens; ++t)
            kernels::quantizeRowQ8_1(x + size_t(t) * cols, s.actQ8_1.data() + size_t(t) * (cols / 32), cols);
        return reinterpret_cast<const uint8_t*>(s.actQ8_1.data());
    case DotInput::Q8_K:
        strideBytes = size_t(cols / 256) * sizeof(BlockQ8_K);
        for (int t = 0; t < tokens; ++t)
            kernels::quantizeRowQ8_K(x + size_t(t) * cols, s.actQ8_K.data() + size_t(t) * (cols / 256), cols);
        return reinterpret_cast<const uint8_t*>(s.actQ8_K.data());
    case DotInput::Q8_KPacked:
        strideBytes = size_t(cols / 256) * sizeof(BlockQ8_K);
        for (int t = 0; t < tokens; ++t) {
            BlockQ8_K* row = s.actQ8_KPacked.data() + size_t(t) * (cols / 256);
            kernels::quantizeRowQ8_K(x + size_t(t) * cols, row, cols);
            kernels::permuteQ8_KForPackedQ4_K(row, cols / 256);
        }
        return reinterpret_cast<const uint8_t*>(s.actQ8_KPacked.data());
    }
    return nullptr;
}

struct PreparedJob
{
    const WeightMatrix* w;
    float* out;
    const uint8_t* in;
    size_t inStride;
    bool lanes;
};

// Rows [r0, r1) of one job for every token, through the weight type's entry in the table (cputypetraits.h).
void runRows(const PreparedJob& j, int tokens, int r0, int r1)
{
    const WeightMatrix& w = *j.w;
    const CpuTypeTraits& type = cpuTypeTraits(w.type);
    if (tokens > 1 && type.block) {
        type.block(w, r0, r1 - r0, j.in, j.inStride, tokens, j.out + r0, size_t(w.rows));
        return;
    }
    // Many rows per call (the activation's share of the sums is prepared once per call).
    rowsTokenByToken(w, r0, r1 - r0, j.in, j.inStride, tokens, j.lanes, j.out + r0, size_t(w.rows));
}

} // namespace

void matmulShared(const MatmulJob* jobs, int jobCount, const float* x, int tokens, RunState& state, ThreadPool& pool)
{
    PreparedJob prepared[4];
    int64_t work = 0;
    int totalRows = 0;
    // Conversions are shared between jobs of the same input type (the buffers hold one type each).
    for (int i = 0; i < jobCount; ++i) {
        const WeightMatrix& w = *jobs[i].w;
        PreparedJob& p = prepared[i];
        p.w = &w;
        p.out = jobs[i].out;
        const DotInput in = dotInputFor(w);
        bool reused = false;
        for (int k = 0; k < i; ++k) {
            if (dotInputFor(*prepared[k].w) == in) {
                p.in = prepared[k].in;
                p.inStride = prepared[k].inStride;
                reused = true;
                break;
            }
        }
        if (!reused)
            p.in = convertInput(in, x, tokens, w.cols, state, p.inStride);
        p.lanes = usesLaneOrder(w, tokens);
        work += int64_t(w.rows) * w.cols * tokens;
        totalRows += w.rows;
    }
    if (pool.threadCount() == 1 || work < kParallelThreshold) {
        for (int i = 0; i < jobCount; ++i)
            runRows(prepared[i], tokens, 0, prepared[i].w->rows);
        return;
    }
    // The concatenated rows of all jobs in chunks that threads take in turn from a shared counter (as ggml's
    // threadpool does), so a thread the OS has descheduled holds up no more than a chunk. Chunks are whole
    // eight-row groups (never splitting a group of an interleaved matrix), two per thread: every chunk starts a
    // new stream whose first pages the kernels' prefetch (simd::streamAhead, 12 KiB ahead) has not asked for,
    // and with eight per thread that cost two threads 13-28 % of their speed here (Q4_K_M, Q5_K_M).
    const int groups = (totalRows + 7) / 8;
    const int chunkGroups = std::max(1, groups / (2 * pool.threadCount()));
    const int chunks = (groups + chunkGroups - 1) / chunkGroups;
    std::atomic<int> next{0};
    pool.runClaimed([&](int, int) {
        for (int c = next.fetch_add(1, std::memory_order_relaxed); c < chunks;
             c = next.fetch_add(1, std::memory_order_relaxed)) {
            const int begin = c * chunkGroups * 8;
            const int end = std::min(begin + chunkGroups * 8, totalRows);
            int base = 0;
            for (int i = 0; i < jobCount; ++i) {
                const int rows = prepared[i].w->rows;
                const int r0 = std::max(begin - base, 0);
                const int r1 = std::min(end - base, rows);
                if (r0 < r1)
                    runRows(prepared[i], tokens, r0, r1);
                base += rows;
            }
        }
    });
}

void matmul(const WeightMatrix& w, const float* x, int tokens, float* out, RunState& state, ThreadPool& pool)
{
    const MatmulJob job{&w, out};
    matmulShared(&job, 1, x, tokens, state, pool);
}

} // namespace ws
