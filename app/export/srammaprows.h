#pragma once
// The rows of the per-core SRAM map, made one at a time from a mesh
// snapshot as the table writer asks for them (a full WSE-3 is ~900,000 cores
// per wafer: the map is never held as a table). Row order: device, then core
// row, then column. Devices whose arrays do not match the mesh size are
// skipped. A core's KV fraction or activity that the snapshot (or frame) does
// not hold is unknown: an invalid QVariant, written as an empty field.

#include "app/export/tablerows.h"
#include "engine/wafer/placement/meshsnapshot.h"

#include <memory>
#include <vector>

namespace ws {

class SramMapRows : public TableRows
{
public:
    static const QStringList& columns();
    SramMapRows(std::shared_ptr<const MeshSnapshot> snapshot, std::shared_ptr<const MeshFrame> frame = {});
    qsizetype count() const override;
    QVariantList row(qsizetype index) const override;
    static const char* coreStateId(CoreState state);

private:
    std::shared_ptr<const MeshSnapshot> m_snapshot;
    std::shared_ptr<const MeshFrame> m_frame;
    size_t m_cores = 0;
    std::vector<size_t> m_devices; // the devices written, in order
};

} // namespace ws
