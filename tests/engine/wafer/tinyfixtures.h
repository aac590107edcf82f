#pragma once
// A small wafer and model so that every element of every tensor can be counted (placement and layout tests).

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/modelshape.h"
#include "engine/wafer/placement/placement.h"

#include <QString>

#include <map>
#include <vector>

namespace wstest {

inline ws::WaferSpec tinyWafer()
{
    ws::WaferSpec w;
    w.meshCols = 14;
    w.meshRows = 11;
    w.reservedCols = 3;
    w.reservedRows = 2;
    w.reservedLeftCols = 2;
    w.reservedTopRows = 1;
    w.sramBytesPerCore = 4096;
    w.programBytesPerCore = 64;
    w.clockHz = 1e9;
    return w;
}

// The tiny wafer as hardware, with SRAM enough for the tiny model's layers (layout tests).
inline ws::HardwareSpec tinyHardware()
{
    ws::HardwareSpec h;
    h.id = "tiny-wafer";
    h.kind = ws::HardwareKind::Wafer;
    h.wafer = tinyWafer();
    h.wafer.sramBytesPerCore = 8192;
    return h;
}

inline ws::ModelConfig tinyModel(bool moe)
{
    ws::ModelConfig m;
    m.id = moe ? "tiny-moe" : "tiny";
    m.architecture = moe ? "qwen3moe" : "qwen2";
    m.layers = 12;
    m.hiddenSize = 96;
    m.ffnSize = 160;
    m.headCount = 4;
    m.kvHeadCount = 2;
    m.headDim = 24;
    m.vocabSize = 301;
    m.attentionBias = !moe;
    m.qkNorm = moe;
    m.contextLength = 64;
    if (moe) {
        m.expertCount = 6;
        m.expertsPerToken = 2;
        m.expertFfnSize = 40;
        m.sharedExpertCount = 1;
    }
    return m;
}

// Counts each (layer, kind, row, input value) once per covering tile over every core of every device: empty when
// every element of every tensor is on exactly one core, else the first that is not.
inline QString elementsNotPlacedOnce(const ws::Placement& p, const ws::ModelConfig& model)
{
    std::map<std::pair<int, int>, std::vector<uint8_t>> seen;
    const ws::ModelShape shape(model);
    for (const auto& t : shape.tensors())
        seen[{t.layer, int(t.kind)}].resize(size_t(t.rows * t.cols * t.count) + seen[{t.layer, int(t.kind)}].size(), 0);
    std::map<std::pair<int, int>, int64_t> rowsOf, colsOf;
    for (const auto& t : shape.tensors()) {
        const bool stackedIn = t.kind == ws::TensorKind::ExpertDown;
        const bool vec = t.isVector();
        rowsOf[{t.layer, int(t.kind)}] = vec ? 1 : (stackedIn ? t.rows : t.rows * t.count);
        colsOf[{t.layer, int(t.kind)}] += vec ? t.cols * t.count : (stackedIn ? t.cols * t.count : t.cols);
    }
    for (int d = 0; d < p.deviceCount; ++d)
        for (int fy = 0; fy < p.fabricRows; ++fy)
            for (int fx = 0; fx < p.fabricCols; ++fx) {
                const auto detail = p.coreDetail(d, fx, fy);
                if (!detail)
                    return QStringLiteral("core (%1, %2) of device %3 has no detail").arg(fx).arg(fy).arg(d);
                for (const ws::CoreTile& tile : detail->tiles) {
                    const auto key = std::make_pair(tile.layer, int(tile.kind));
                    auto& counts = seen[key];
                    const int64_t cols = colsOf[key];
                    if (tile.rowEnd > rowsOf[key] || tile.colEnd > cols)
                        return QStringLiteral("a tile of %1 lies outside its tensor")
                            .arg(QLatin1String(ws::tensorKindId(tile.kind)));
                    for (int64_t r = tile.rowBegin; r < tile.rowEnd; ++r)
                        for (int64_t c = tile.colBegin; c < tile.colEnd; ++c)
                            ++counts[size_t(r * cols + c)];
                }
            }
    for (const auto& [key, counts] : seen) {
        // Vectors of one layer and kind are concatenated into one spread; count them together.
        for (size_t i = 0; i < counts.size(); ++i)
            if (counts[i] != 1)
                return (QStringLiteral("layer %1 %2 element %3 placed %4 times")
                            .arg(key.first)
                            .arg(QLatin1String(ws::tensorKindId(ws::TensorKind(key.second))))
                            .arg(i)
                            .arg(counts[i]));
    }
    return {};
}

} // namespace wstest
