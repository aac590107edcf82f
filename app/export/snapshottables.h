#pragma once
// Data tables built from a mesh snapshot for export: the per-core SRAM map
// (one row per core of every device, with what it holds).

#include "app/export/datatable.h"
#include "engine/wafer/placement/meshsnapshot.h"

namespace ws {

class SnapshotTables
{
public:
    // Columns: device, x, y, sram_used_bytes, sram_fraction, kv_fraction, layer_index, tensor_kind,
    // activity, state. Devices whose arrays do not match the mesh size are skipped.
    static DataTable sramMap(const MeshSnapshot& snapshot);
    static const char* coreStateId(CoreState state);
};

} // namespace ws
