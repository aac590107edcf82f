#include "engine/decode/matmul.h"

#include "engine/decode/kernels.h"

#include <algorithm>
#include <atomic>

namespace ws {

namespace {

constexpr int64_t kParallelThreshold = 1 << 17; // multiply-adds below which one thread does the work

// Q8_KPacked: Q8_K permuted for packed Q4_K matrices (kernels::permuteQ8_KForPackedQ4_K).
enum class DotInput
{
    F32,
    F16,
    Bf16,
    Q8_0,
    Q8_1,
    Q8_K,
    Q8_KPacked
};

DotInput dotInputFor(const WeightMatrix& w)
{
    if (w.packed)
        return DotInput::Q8_KPacked;
    switch (w.type) {
    case GgmlType::F32:
        return DotInput::F32;
    case GgmlType::F16:
        return DotInput::F16;
    case GgmlType::BF16:
        return DotInput::Bf16;
    case GgmlType::Q8_0:
    case GgmlType::Q4_0:
    case GgmlType::Q5_0:
    case GgmlType::IQ4_NL:
    case GgmlType::MXFP4:
        return DotInput::Q8_0;
    case GgmlType::Q4_1:
    case GgmlType::Q5_1:
        return DotInput::Q8_1;
    case GgmlType::Q2_K:
    case GgmlType::Q3_K:
    case GgmlType::Q4_K:
    case GgmlType::Q5_K:
    case GgmlType::Q6_K:
    case GgmlType::IQ4_XS:
        return DotInput::Q8_K;
    }
    return DotInput::F32;
}

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

template <typename T> const T* as(const uint8_t* p)
{
    return reinterpret_cast<const T*>(p);
}

float dot(const WeightMatrix& w, const uint8_t* row, const uint8_t* in, bool lanes)
{
    const int n = w.cols;
    switch (w.type) {
    case GgmlType::F32: {
        const auto* a = reinterpret_cast<const float*>(row);
        const auto* b = reinterpret_cast<const float*>(in);
        return lanes ? kernels::dotF32Lanes(a, b, n) : kernels::dotF32Ggml(a, b, n);
    }
    case GgmlType::F16: {
        const auto* a = reinterpret_cast<const uint16_t*>(row);
        const auto* b = reinterpret_cast<const uint16_t*>(in);
        return lanes ? kernels::dotF16Lanes(a, b, n) : kernels::dotF16Ggml(a, b, n);
    }
    case GgmlType::BF16:
        return kernels::dotBf16(reinterpret_cast<const uint16_t*>(row), reinterpret_cast<const uint16_t*>(in), n);
    case GgmlType::Q8_0:
        return kernels::dotQ8_0(as<BlockQ8_0>(row), as<BlockQ8_0>(in), n / 32);
    case GgmlType::Q4_0:
        return kernels::dotQ4_0(as<BlockQ4_0>(row), as<BlockQ8_0>(in), n / 32);
    case GgmlType::Q4_1:
        return kernels::dotQ4_1(as<BlockQ4_1>(row), as<BlockQ8_1>(in), n / 32);
    case GgmlType::Q5_0:
        return kernels::dotQ5_0(as<BlockQ5_0>(row), as<BlockQ8_0>(in), n / 32);
    case GgmlType::Q5_1:
        return kernels::dotQ5_1(as<BlockQ5_1>(row), as<BlockQ8_1>(in), n / 32);
    case GgmlType::Q2_K:
        return kernels::dotQ2_K(as<BlockQ2_K>(row), as<BlockQ8_K>(in), n / 256);
    case GgmlType::Q3_K:
        return kernels::dotQ3_K(as<BlockQ3_K>(row), as<BlockQ8_K>(in), n / 256);
    case GgmlType::Q4_K:
        return kernels::dotQ4_K(as<BlockQ4_K>(row), as<BlockQ8_K>(in), n / 256, w.interleaved);
    case GgmlType::Q5_K:
        return kernels::dotQ5_K(as<BlockQ5_K>(row), as<BlockQ8_K>(in), n / 256);
    case GgmlType::Q6_K:
        return kernels::dotQ6_K(as<BlockQ6_K>(row), as<BlockQ8_K>(in), n / 256);
    case GgmlType::IQ4_NL:
        return kernels::dotIq4Nl(as<BlockIq4Nl>(row), as<BlockQ8_0>(in), n / 32, w.interleaved);
    case GgmlType::IQ4_XS:
        return kernels::dotIq4Xs(as<BlockIq4Xs>(row), as<BlockQ8_K>(in), n / 256);
    case GgmlType::MXFP4:
        return kernels::dotMxfp4(as<BlockMxfp4>(row), as<BlockQ8_0>(in), n / 32, w.interleaved);
    }
    return 0.0f;
}

struct PreparedJob
{
    const WeightMatrix* w;
    float* out;
    const uint8_t* in;
    size_t inStride;
    bool lanes;
};

void runRows(const PreparedJob& j, int tokens, int r0, int r1)
{
    const WeightMatrix& w = *j.w;
    if (w.packed) {
        // Any rows at once: the packed kernel takes groups of eight and a shorter last one.
        for (int t = 0; t < tokens; ++t)
            kernels::dotQ4_KPackedRows(w.row(r0), w.rowBytes, r1 - r0, as<BlockQ8_K>(j.in + j.inStride * size_t(t)),
                                       w.cols / 256, j.out + size_t(t) * w.rows + r0);
        return;
    }
    if (w.type == GgmlType::Q4_K && w.interleaved) {
        // Eight rows at a time, as llama.cpp's repacked layout is read (same sums per row); the rest singly.
        float group[8];
        for (; r0 + 8 <= r1; r0 += 8) {
            for (int t = 0; t < tokens; ++t) {
                kernels::dotQ4_KInterleaved8(w.row(r0), w.rowBytes, as<BlockQ8_K>(j.in + j.inStride * size_t(t)),
                                             w.cols / 256, group);
                std::copy(group, group + 8, j.out + size_t(t) * w.rows + r0);
            }
        }
    }
    if (w.type == GgmlType::Q8_0 || w.type == GgmlType::Q5_K || w.type == GgmlType::Q6_K) {
        // Many rows per call (the activation's share of the sums is prepared once per call); for several
        // tokens, tiles of 16 rows that stay in the cache while every token reads them.
        const int tile = tokens == 1 ? r1 - r0 : 16;
        for (int r = r0; r < r1; r += tile) {
            const int count = std::min(tile, r1 - r);
            for (int t = 0; t < tokens; ++t) {
                const uint8_t* in = j.in + j.inStride * size_t(t);
                float* out = j.out + size_t(t) * w.rows + r;
                if (w.type == GgmlType::Q8_0)
                    kernels::dotQ8_0Rows(w.row(r), w.rowBytes, count, as<BlockQ8_0>(in), w.cols / 32, out);
                else if (w.type == GgmlType::Q5_K)
                    kernels::dotQ5_KRows(w.row(r), w.rowBytes, count, as<BlockQ8_K>(in), w.cols / 256, out);
                else
                    kernels::dotQ6_KRows(w.row(r), w.rowBytes, count, as<BlockQ8_K>(in), w.cols / 256, out);
            }
        }
        return;
    }
    for (int r = r0; r < r1; ++r) {
        const uint8_t* row = w.row(r);
        for (int t = 0; t < tokens; ++t)
            j.out[size_t(t) * w.rows + r] = dot(w, row, j.in + j.inStride * size_t(t), j.lanes);
    }
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
