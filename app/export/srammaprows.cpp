#include "app/export/srammaprows.h"

#include <QStringList>

#include <cmath>

namespace ws {

namespace {

template <typename PerDevice> bool fits(const PerDevice& perDevice, size_t device, size_t cores)
{
    return device < perDevice.size() && perDevice[device].size() == cores;
}

} // namespace

const QStringList& SramMapRows::columns()
{
    static const QStringList names{"device",      "x",           "y",           "sram_used_bytes", "sram_fraction",
                                   "kv_fraction", "layer_index", "tensor_kind", "activity",        "state"};
    return names;
}

SramMapRows::SramMapRows(std::shared_ptr<const MeshSnapshot> snapshot, std::shared_ptr<const MeshFrame> frame)
    : m_snapshot(std::move(snapshot)), m_frame(std::move(frame))
{
    const MeshSnapshot& s = *m_snapshot;
    m_cores = size_t(std::max(0, s.meshCols)) * size_t(std::max(0, s.meshRows));
    for (size_t d = 0; d < size_t(std::max(0, s.deviceCount)); ++d)
        if (fits(s.sramFraction, d, m_cores))
            m_devices.push_back(d);
}

qsizetype SramMapRows::count() const
{
    return qsizetype(m_devices.size() * m_cores);
}

QVariantList SramMapRows::row(qsizetype index) const
{
    const MeshSnapshot& s = *m_snapshot;
    const size_t d = m_devices[size_t(index) / m_cores];
    const size_t i = size_t(index) % m_cores;
    const float fraction = s.sramFraction[d][i];
    const MeshOwner* owner = nullptr;
    if (fits(s.owner, d, m_cores) && s.owner[d][i] < s.owners.size())
        owner = &s.owners[s.owner[d][i]];
    const bool hasKv = fits(s.kvFraction, d, m_cores);
    const bool hasActivity = m_frame && fits(m_frame->activity, d, m_cores);
    const char* state = fits(s.coreState, d, m_cores) ? coreStateId(s.coreState[d][i]) : "healthy";
    return QVariantList{int(d),
                        int(i % size_t(s.meshCols)),
                        int(i / size_t(s.meshCols)),
                        qlonglong(std::llround(double(fraction) * double(s.sramBytesPerCore))),
                        double(fraction),
                        hasKv ? QVariant(double(s.kvFraction[d][i])) : QVariant(),
                        owner ? owner->layerIndex : -1,
                        owner ? QString::fromStdString(owner->tensorKind) : QString(),
                        hasActivity ? QVariant(double(m_frame->activity[d][i])) : QVariant(),
                        QString::fromLatin1(state)};
}

const char* SramMapRows::coreStateId(CoreState state)
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

} // namespace ws
