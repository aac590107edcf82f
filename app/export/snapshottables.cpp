#include "app/export/snapshottables.h"

#include <cmath>

namespace ws {

const char* SnapshotTables::coreStateId(CoreState state)
{
    switch (state) {
    case CoreState::Healthy:
        return "healthy";
    case CoreState::Reserved:
        return "reserved";
    case CoreState::Dead:
        return "dead";
    case CoreState::SpareUsed:
        return "spare_used";
    case CoreState::SpareIdle:
        return "spare_idle";
    case CoreState::Shifted:
        return "shifted";
    }
    return "unknown";
}

DataTable SnapshotTables::sramMap(const MeshSnapshot& s, const MeshFrame* frame)
{
    DataTable table;
    table.name = QStringLiteral("sram_map");
    table.columns = {"device",      "x",           "y",           "sram_used_bytes", "sram_fraction",
                     "kv_fraction", "layer_index", "tensor_kind", "activity",        "state"};
    table.inputs = QJsonObject{{"mesh_cols", s.meshCols},
                               {"mesh_rows", s.meshRows},
                               {"devices", s.deviceCount},
                               {"sram_bytes_per_core", double(s.sramBytesPerCore)}};
    const size_t cores = size_t(std::max(0, s.meshCols)) * size_t(std::max(0, s.meshRows));
    const auto fits = [cores](const auto& perDevice, size_t device) {
        return device < perDevice.size() && perDevice[device].size() == cores;
    };
    for (size_t d = 0; d < size_t(std::max(0, s.deviceCount)); ++d) {
        if (!fits(s.sramFraction, d))
            continue;
        const bool hasOwner = fits(s.owner, d);
        const bool hasKv = fits(s.kvFraction, d);
        const bool hasActivity = frame && fits(frame->activity, d);
        const bool hasState = fits(s.coreState, d);
        for (size_t i = 0; i < cores; ++i) {
            const float fraction = s.sramFraction[d][i];
            const MeshOwner* owner = nullptr;
            if (hasOwner && s.owner[d][i] < s.owners.size())
                owner = &s.owners[s.owner[d][i]];
            table.rows.append(QVariantList{
                int(d), int(i % size_t(s.meshCols)), int(i / size_t(s.meshCols)),
                qlonglong(std::llround(double(fraction) * double(s.sramBytesPerCore))), double(fraction),
                hasKv ? QVariant(double(s.kvFraction[d][i])) : QVariant(0.0), owner ? owner->layerIndex : -1,
                owner ? QString::fromStdString(owner->tensorKind) : QString(),
                hasActivity ? QVariant(double(frame->activity[d][i])) : QVariant(0.0),
                QString::fromLatin1(hasState ? coreStateId(s.coreState[d][i]) : "healthy")});
        }
    }
    return table;
}

} // namespace ws
