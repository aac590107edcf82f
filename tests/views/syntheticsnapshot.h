#pragma once
// A synthetic MeshSnapshot for view tests and the MeshView benchmark. The
// values are simple functions of the core position, so a test can compute
// what any core should show without running a placement:
//   sramFraction = (x + y) / (cols + rows - 2) on device 0, reversed on device 1, ...
//   owner        = one owner per band of `bandRows` rows, cycling attn_q, ffn_up, ffn_down, kv
//   kvFraction   = x / (cols - 1)
// Regions: one per band, labelled "L<layer>".

#include "engine/wafer/placement/meshsnapshot.h"

#include <algorithm>
#include <memory>
#include <string>

namespace ws::testing {

inline float syntheticSram(int device, int x, int y, int cols, int rows)
{
    const float f = static_cast<float>(x + y) / static_cast<float>(std::max(1, cols + rows - 2));
    return device % 2 == 0 ? f : 1.0f - f;
}

inline std::shared_ptr<MeshSnapshot> makeSyntheticSnapshot(int cols, int rows, int devices, int bandRows = 8,
                                                           int diesX = 0, int diesY = 0)
{
    auto s = std::make_shared<MeshSnapshot>();
    s->meshCols = cols;
    s->meshRows = rows;
    s->deviceCount = devices;
    s->diesX = diesX;
    s->diesY = diesY;
    s->sramBytesPerCore = 48 * 1024;
    const char* kinds[] = {"attn_q", "ffn_up", "ffn_down", "kv"};
    s->owners.push_back({-1, "none"});
    const int bands = (rows + bandRows - 1) / bandRows;
    for (int d = 0; d < devices; ++d) {
        std::vector<float> sram(static_cast<size_t>(cols) * rows);
        std::vector<uint16_t> owner(sram.size());
        std::vector<float> kv(sram.size());
        for (int y = 0; y < rows; ++y) {
            for (int x = 0; x < cols; ++x) {
                const size_t i = static_cast<size_t>(y) * cols + x;
                sram[i] = syntheticSram(d, x, y, cols, rows);
                const int band = y / bandRows;
                owner[i] = static_cast<uint16_t>(1 + (d * bands + band) * 4 + (x * 4 / cols));
                kv[i] = static_cast<float>(x) / static_cast<float>(std::max(1, cols - 1));
            }
        }
        s->sramFraction.push_back(std::move(sram));
        s->owner.push_back(std::move(owner));
        s->kvFraction.push_back(std::move(kv));
        for (int b = 0; b < bands; ++b) {
            const int layer = d * bands + b;
            for (const char* k : kinds)
                s->owners.push_back({layer, k});
            MeshRegion r;
            r.device = d;
            r.x = 0;
            r.y = b * bandRows;
            r.width = cols;
            r.height = std::min(bandRows, rows - b * bandRows);
            r.layerIndex = layer;
            r.label = std::to_string(layer);
            r.label.insert(r.label.begin(), 'L'); // (operator+ trips GCC 12 -Wrestrict at -O3)
            s->regions.push_back(r);
        }
    }
    return s;
}

} // namespace ws::testing
