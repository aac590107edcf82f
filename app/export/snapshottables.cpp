#include "app/export/snapshottables.h"

#include "app/export/srammaprows.h"

namespace ws {

DataTable SnapshotTables::sramMap(std::shared_ptr<const MeshSnapshot> snapshot, std::shared_ptr<const MeshFrame> frame)
{
    DataTable table;
    table.name = QStringLiteral("sram_map");
    table.columns = SramMapRows::columns();
    const MeshSnapshot& s = *snapshot;
    table.inputs = QJsonObject{{"mesh_cols", s.meshCols},
                               {"mesh_rows", s.meshRows},
                               {"devices", s.deviceCount},
                               {"sram_bytes_per_core", double(s.sramBytesPerCore)}};
    table.lazyRows = std::make_shared<SramMapRows>(std::move(snapshot), std::move(frame));
    return table;
}

DataTable SnapshotTables::sramMap(const MeshSnapshot& snapshot)
{
    return sramMap(std::make_shared<const MeshSnapshot>(snapshot));
}

} // namespace ws
