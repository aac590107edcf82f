#include "views/mesh/meshraster.h"

#include <QPainter>

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace ws::views {

namespace {

// Core index under each target pixel along one axis (-1 off the mesh), and whether
// the pixel is the first one of its core (where the grid line goes).
void mapAxis(int pixels, double offset, double scale, int cores, std::vector<int>& index, std::vector<char>& edge)
{
    index.assign(static_cast<size_t>(pixels), -1);
    edge.assign(static_cast<size_t>(pixels), 0);
    int previous = -2;
    for (int i = 0; i < pixels; ++i) {
        const double c = std::floor((i + 0.5 - offset) / scale);
        const int core = c >= 0 && c < cores ? static_cast<int>(c) : -1;
        index[static_cast<size_t>(i)] = core;
        edge[static_cast<size_t>(i)] = core >= 0 && core != previous;
        previous = core;
    }
}

inline QRgb darken(QRgb c, int keep) // keep: 0..256
{
    return qRgb(qRed(c) * keep >> 8, qGreen(c) * keep >> 8, qBlue(c) * keep >> 8);
}

// The first on-mesh pixel along an axis (mapAxis's index) and the one past the last: [first, end).
std::pair<int, int> onMesh(const std::vector<int>& index)
{
    int first = 0;
    int end = static_cast<int>(index.size());
    while (first < end && index[static_cast<size_t>(first)] < 0)
        ++first;
    while (end > first && index[static_cast<size_t>(end - 1)] < 0)
        --end;
    return {first, end};
}

// White at kDieAlpha over c, as a painter blends it.
inline QRgb dieLine(QRgb c)
{
    const auto over = [](int v) { return v + ((255 - v) * kDieAlpha + 127) / 255; };
    return qRgb(over(qRed(c)), over(qGreen(c)), over(qBlue(c)));
}

// The dashed die lines over the mesh's pixels [x0, x1) x [y0, y1).
void drawDies(QImage& target, const RasterDies& dies, int x0, int x1, int y0, int y1)
{
    const auto on = [](int k) { return k % (kDieDashOn + kDieDashOff) < kDieDashOn; };
    for (const int x : dies.columns) {
        if (x < x0 || x >= x1)
            continue;
        for (int y = y0; y < y1; ++y)
            if (on(y - y0)) {
                auto* px = reinterpret_cast<QRgb*>(target.scanLine(y)) + x;
                *px = dieLine(*px);
            }
    }
    for (const int y : dies.rows) {
        if (y < y0 || y >= y1)
            continue;
        auto* line = reinterpret_cast<QRgb*>(target.scanLine(y));
        for (int x = x0; x < x1; ++x)
            if (on(x - x0))
                line[x] = dieLine(line[x]);
    }
}

} // namespace

bool sameRaster(const ViewTransform& a, const ViewTransform& b)
{
    return a.viewPx == b.viewPx && a.meshCores == b.meshCores && a.turned == b.turned && a.scale == b.scale &&
           a.offsetPx == b.offsetPx;
}

namespace {

// The pixels of source rows `rows[0..7]` (the block's bottom row first) from column x0, turned: output row x0 + j
// gets the eight pixels of column x0 + j, bottom row first, at `out + (x0 + j) * stride`. An 8 x 8 transpose of
// 32-bit lanes in AVX2 (the engine's baseline): unpack pairs, then quads, then swap the 128-bit halves.
__attribute__((target("avx2"))) void turnBlock(const QRgb* const* rows, int x0, QRgb* out, size_t stride)
{
    __m256i r[8];
    for (int k = 0; k < 8; ++k)
        r[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[k] + x0));
    __m256i t[8];
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_epi32(r[k], r[k + 1]);     // columns 0, 1 | 4, 5 of rows k, k + 1
        t[k + 1] = _mm256_unpackhi_epi32(r[k], r[k + 1]); // columns 2, 3 | 6, 7
    }
    __m256i u[8];
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);         // column 0 | 4 of four rows
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);     // column 1 | 5
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]); // column 2 | 6
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]); // column 3 | 7
    }
    for (int j = 0; j < 4; ++j) {
        const __m256i low = _mm256_permute2x128_si256(u[j], u[j + 4], 0x20);  // column j of the eight rows
        const __m256i high = _mm256_permute2x128_si256(u[j], u[j + 4], 0x31); // column j + 4
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + size_t(x0 + j) * stride), low);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + size_t(x0 + j + 4) * stride), high);
    }
}

} // namespace

void turnMesh(const QImage& cores, QImage& target)
{
    const QImage src = cores.format() == QImage::Format_RGB32 ? cores : cores.convertToFormat(QImage::Format_RGB32);
    const QSize size = src.size().transposed();
    if (target.size() != size || target.format() != QImage::Format_RGB32 || !target.isDetached())
        target = QImage(size, QImage::Format_RGB32);
    const int w = src.width(), h = src.height();
    const auto stride = size_t(target.bytesPerLine() / qsizetype(sizeof(QRgb)));
    auto* out = reinterpret_cast<QRgb*>(target.bits());
    const auto at = [&](int y) { return reinterpret_cast<const QRgb*>(src.constScanLine(y)); };
    // Core (x, y) goes to column h - 1 - y of row x. Whole blocks of 8 x 8 (WSE-3's 0.9 M cores in 0.32-0.64 ms,
    // medians of 40 turns into a warm target, against 0.78-1.23 ms for the 32 x 32 tiles of single pixels this
    // replaced, alternated), then the last columns and rows.
    const int w8 = w / 8 * 8, h8 = h / 8 * 8;
    for (int y0 = 0; y0 < h8; y0 += 8) {
        const QRgb* rows[8];
        for (int k = 0; k < 8; ++k)
            rows[k] = at(y0 + 7 - k); // the bottom row first: it lands in the leftmost column
        QRgb* column = out + size_t(h - 8 - y0);
        for (int x0 = 0; x0 < w8; x0 += 8)
            turnBlock(rows, x0, column, stride);
        for (int x = w8; x < w; ++x)
            for (int k = 0; k < 8; ++k)
                column[size_t(x) * stride + size_t(k)] = rows[k][x];
    }
    for (int y = h8; y < h; ++y) {
        const QRgb* in = at(y);
        QRgb* column = out + size_t(h - 1 - y);
        for (int x = 0; x < w; ++x)
            column[size_t(x) * stride] = in[x];
    }
}

void rasterizeMesh(const QImage& cores, const ViewTransform& t, QRgb background, int gridAlpha, QImage& target,
                   const RasterDies& dies, const QImage& turned)
{
    if (t.turned && !turned.isNull() && turned.size() == cores.size().transposed()) {
        ViewTransform upright = t; // the turned copy shown as it is: the same offsets, scale and view
        upright.turned = false;
        upright.meshCores = t.meshCores.transposed();
        rasterizeMesh(turned, upright, background, gridAlpha, target, dies);
        return;
    }
    const QSize size = t.viewPx.toSize();
    if (target.size() != size || target.format() != QImage::Format_RGB32)
        target = QImage(size, QImage::Format_RGB32);
    if (size.isEmpty())
        return;
    if (cores.isNull() || !t.isValid()) {
        target.fill(background);
        return;
    }
    const QImage src = cores.format() == QImage::Format_RGB32 ? cores : cores.convertToFormat(QImage::Format_RGB32);
    // Turned, the shown grid's columns are the mesh's rows taken from the bottom, and its rows the mesh's columns.
    const QSize shown = t.turned ? src.size().transposed() : src.size();
    std::vector<int> colCore, rowCore;
    std::vector<char> colEdge, rowEdge;
    mapAxis(size.width(), t.offsetPx.x(), t.scale, shown.width(), colCore, colEdge);
    mapAxis(size.height(), t.offsetPx.y(), t.scale, shown.height(), rowCore, rowEdge);
    const int keep = 256 - std::clamp(gridAlpha, 0, 255);
    const bool grid = gridAlpha > 0;
    // First and last on-mesh columns, to skip the background on each row.
    const auto [x0, x1] = onMesh(colCore);
    // Where each target column reads: unturned, the offset of its core within a mesh row; turned, the offset of
    // the first core of its mesh row (the target row then adds the mesh column).
    // 32-bit offsets, as the core indices are (64-bit ones made the upright frames measurably slower); a turned
    // mesh's offsets stay below 2^31 for any image QImage holds, whose bytes do.
    const auto* pixels = reinterpret_cast<const QRgb*>(src.constBits());
    const int stride = int(src.bytesPerLine() / qsizetype(sizeof(QRgb)));
    std::vector<int> turnedAt;
    if (t.turned) {
        turnedAt.assign(static_cast<size_t>(size.width()), 0);
        for (int x = x0; x < x1; ++x)
            turnedAt[static_cast<size_t>(x)] = (src.height() - 1 - colCore[static_cast<size_t>(x)]) * stride;
    }
    const std::vector<int>& colAt = t.turned ? turnedAt : colCore;
    // Each pixel is written once: the background only off the mesh (a turned mesh covers most of the view, and
    // filling it all first cost a second pass over those pixels). A row that shows the same mesh row as the last
    // one made, and is not a grid line, is a copy of it: zoomed in, most rows are (4 of 5 at 5 px a core), and a
    // turned mesh's gather reads a column of the source for each of them.
    const QRgb* lastRow = nullptr;
    int lastCy = -1;
    for (int y = 0; y < size.height(); ++y) {
        auto* out = reinterpret_cast<QRgb*>(target.scanLine(y));
        const int cy = rowCore[static_cast<size_t>(y)];
        if (cy < 0) {
            std::fill(out, out + size.width(), background);
            continue;
        }
        const bool edgeRow = grid && rowEdge[static_cast<size_t>(y)];
        if (!edgeRow && cy == lastCy) {
            std::memcpy(out, lastRow, size_t(size.width()) * sizeof(QRgb));
            continue;
        }
        std::fill(out, out + x0, background);
        std::fill(out + x1, out + size.width(), background);
        const QRgb* in = t.turned ? pixels + cy : pixels + ptrdiff_t(cy) * stride;
        if (edgeRow) {
            for (int x = x0; x < x1; ++x)
                out[x] = darken(in[colAt[static_cast<size_t>(x)]], keep);
            continue;
        }
        for (int x = x0; x < x1; ++x) {
            const QRgb c = in[colAt[static_cast<size_t>(x)]];
            out[x] = grid && colEdge[static_cast<size_t>(x)] ? darken(c, keep) : c;
        }
        lastRow = out;
        lastCy = cy;
    }
    if (dies.columns.empty() && dies.rows.empty())
        return;
    const auto [y0, y1] = onMesh(rowCore);
    drawDies(target, dies, x0, x1, y0, y1);
}

namespace {

// An axis of n source pixels reduced to m: output pixel i covers [i n/m, (i+1) n/m), that is `taps` source
// pixels from first[i] with weights[i * taps + k] (a partly covered pixel by its share; the sum is 1). Every output
// has the same number of taps, zero weights padding the shorter ones, so the loops over them are regular.
struct ReducedAxis
{
    int taps = 0;
    std::vector<int> first;
    std::vector<float> weights;
    std::vector<float> pairWeights; // two taps or more: each output's first two weights four times each (8 floats)
};

ReducedAxis reduceAxis(int n, int m)
{
    ReducedAxis a;
    for (int i = 0; i < m; ++i) { // in units of 1/m source pixel: exact
        const int64_t lo = int64_t(i) * n, hi = int64_t(i + 1) * n;
        a.taps = std::max(a.taps, int((hi + m - 1) / m - lo / m));
    }
    a.first.resize(static_cast<size_t>(m));
    a.weights.assign(static_cast<size_t>(m) * size_t(a.taps), 0.0f);
    for (int i = 0; i < m; ++i) {
        const int64_t lo = int64_t(i) * n, hi = int64_t(i + 1) * n;
        const int start = int(lo / m);
        const int first = std::min(start, n - a.taps); // the taps stay inside the axis
        a.first[static_cast<size_t>(i)] = first;
        for (int64_t x = start; x * m < hi; ++x) {
            const int64_t from = std::max(lo, x * m), to = std::min(hi, (x + 1) * m);
            a.weights[static_cast<size_t>(i) * size_t(a.taps) + size_t(x - first)] = float(to - from) / float(n);
        }
    }
    return a;
}

// The columns' pairWeights (weightedColumns reads them; the rows have no use for them).
void spreadPairs(ReducedAxis& a)
{
    if (a.taps < 2)
        return;
    a.pairWeights.resize(a.first.size() * 8);
    for (size_t i = 0; i < a.pairWeights.size(); ++i)
        a.pairWeights[i] = a.weights[i / 8 * size_t(a.taps) + i % 8 / 4];
}

// sum[i] = the weighted sum over k of in[k][i], for the `lanes` bytes of each row: added in the order of k, each
// product rounded before its sum. AVX2 (the engine's baseline, x86-64-v3, so every machine that runs WaferScope
// has it): eight bytes widened to floats per vector, a third of SSE2's unpacks per byte.
__attribute__((target("avx2"))) void weightedRows(const uchar* const* in, const float* rw, int taps, int lanes,
                                                  float* sum)
{
    int i = 0;
    for (; i + 32 <= lanes; i += 32) {
        __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
        for (int k = 0; k < taps; ++k) {
            const __m256 w = _mm256_set1_ps(rw[k]);
            for (int q = 0; q < 4; ++q) {
                const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in[k] + i + 8 * q));
                acc[q] = _mm256_add_ps(acc[q], _mm256_mul_ps(w, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes))));
            }
        }
        for (int q = 0; q < 4; ++q)
            _mm256_storeu_ps(sum + i + 8 * q, acc[q]);
    }
    for (; i < lanes; ++i) {
        float a = 0;
        for (int k = 0; k < taps; ++k)
            a += rw[k] * float(in[k][i]);
        sum[i] = a;
    }
}

// out[x] = each byte of the weighted sum over k of the columns' pixels (4 floats each in `sum`) that pixel x of
// `width` covers, added in the order of k, rounded to the nearest byte. Two pixels a vector (AVX2).
__attribute__((target("avx2"))) void weightedColumns(const float* sum, const ReducedAxis& cols, int width,
                                                     uint32_t* out)
{
    const size_t taps = size_t(cols.taps);
    const __m256i zero = _mm256_setzero_si256();
    int x = 0;
    if (taps >= 2) {
        // A pixel's first two columns are 8 adjacent floats: one vector, times its two weights spread in
        // `pairWeights`; the halves' sum is (0 + w0 p0) + w1 p1. Its other columns are added in order.
        const float* pairs = cols.pairWeights.data();
        for (; x + 2 <= width; x += 2) {
            const float* p0 = sum + 4 * size_t(cols.first[size_t(x)]);
            const float* p1 = sum + 4 * size_t(cols.first[size_t(x) + 1]);
            const __m256 a = _mm256_mul_ps(_mm256_loadu_ps(pairs + 8 * size_t(x)), _mm256_loadu_ps(p0));
            const __m256 b = _mm256_mul_ps(_mm256_loadu_ps(pairs + 8 * size_t(x) + 8), _mm256_loadu_ps(p1));
            __m256 c = _mm256_add_ps(_mm256_permute2f128_ps(a, b, 0x20), _mm256_permute2f128_ps(a, b, 0x31));
            const float* w0 = cols.weights.data() + size_t(x) * taps;
            const float* w1 = w0 + taps;
            for (size_t k = 2; k < taps; ++k)
                c = _mm256_add_ps(c, _mm256_mul_ps(_mm256_set_m128(_mm_set1_ps(w1[k]), _mm_set1_ps(w0[k])),
                                                   _mm256_loadu2_m128(p1 + 4 * k, p0 + 4 * k)));
            // Rounded to the nearest byte (sums of weights 1 over bytes stay within 0-255), in memory order.
            const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(_mm256_cvtps_epi32(c), zero), zero);
            out[x] = uint32_t(_mm256_extract_epi32(bytes, 0));
            out[x + 1] = uint32_t(_mm256_extract_epi32(bytes, 4));
        }
    }
    for (; x < width; ++x) {
        const float* w = cols.weights.data() + size_t(x) * taps;
        const float* p = sum + 4 * size_t(cols.first[size_t(x)]);
        __m128 c = _mm_setzero_ps();
        for (size_t k = 0; k < taps; ++k)
            c = _mm_add_ps(c, _mm_mul_ps(_mm_set1_ps(w[k]), _mm_loadu_ps(p + 4 * k)));
        const __m128i bytes =
            _mm_packus_epi16(_mm_packs_epi32(_mm_cvtps_epi32(c), _mm_setzero_si128()), _mm_setzero_si128());
        out[x] = uint32_t(_mm_cvtsi128_si32(bytes));
    }
}

} // namespace

// The weighted sums in floats (weightedRows, then weightedColumns): the same bits as SSE2 four floats at a time.
void reduceMesh(const QImage& cores, QSize size, QImage& target)
{
    if (target.size() != size || target.format() != QImage::Format_RGB32 || !target.isDetached())
        target = QImage(size, QImage::Format_RGB32);
    if (size.isEmpty() || cores.isNull())
        return;
    const QImage src = cores.format() == QImage::Format_RGB32 ? cores : cores.convertToFormat(QImage::Format_RGB32);
    if (size.width() > src.width() || size.height() > src.height()) { // not a reduction: Qt's smooth scaling
        target = src.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        return;
    }
    ReducedAxis cols = reduceAxis(src.width(), size.width());
    spreadPairs(cols);
    const ReducedAxis rows = reduceAxis(src.height(), size.height());
    // Per output row: its source rows summed with their weights into `sum` (all four bytes of each pixel, so the
    // pass is one stream of floats), then each output pixel sums its columns of that.
    const int lanes = src.width() * 4;
    std::vector<float> sum(static_cast<size_t>(lanes));
    std::vector<const uchar*> in(static_cast<size_t>(rows.taps));
    std::vector<float> rw(static_cast<size_t>(rows.taps));
    for (int y = 0; y < size.height(); ++y) {
        // The rows with a weight: the padding's zeros are skipped here, where each costs a pass over a row.
        int taps = 0;
        for (int k = 0; k < rows.taps; ++k)
            if (const float w = rows.weights[size_t(y) * size_t(rows.taps) + size_t(k)]; w != 0.0f) {
                rw[static_cast<size_t>(taps)] = w;
                in[static_cast<size_t>(taps++)] = src.constScanLine(rows.first[static_cast<size_t>(y)] + k);
            }
        weightedRows(in.data(), rw.data(), taps, lanes, sum.data());
        weightedColumns(sum.data(), cols, size.width(), reinterpret_cast<uint32_t*>(target.scanLine(y)));
    }
}

} // namespace ws::views
