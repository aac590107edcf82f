#pragma once
// The dataflow animation of one decoded token on a scenario's wafers: the
// engine's per-token schedule (engine/wafer/dataflow/schedule.h, timed with the
// calibrated constants of engine/perf) and, for a moment of it, which cores
// compute or forward (engine/wafer/dataflow/activity.h). A token takes microseconds on
// a wafer, so a recording shows it slowed down; tokenSeconds() is the real
// time, for the caption.

#include "app/scenario/scenarioscene.h"
#include "engine/wafer/dataflow/schedule.h"

#include <QString>

#include <memory>
#include <optional>

namespace ws {

class MeshAnimation
{
    Q_DECLARE_TR_FUNCTIONS(ws::MeshAnimation)

public:
    static std::optional<MeshAnimation> create(const ScenarioScene& scene, const Scenario& scenario, QString* error);

    double tokenSeconds() const { return m_schedule.seconds(); }
    const TokenSchedule& schedule() const { return m_schedule; }
    // The scene's snapshot with the activity of `device` at `fraction` (0..1) of one token's schedule.
    std::shared_ptr<const MeshSnapshot> frame(double fraction, int device) const;
    // Ids of the phases running at `fraction` ("qkv_gemv", ...), for captions.
    QString activePhases(double fraction) const;

private:
    std::shared_ptr<const MeshSnapshot> m_base;
    TokenSchedule m_schedule;
};

} // namespace ws
