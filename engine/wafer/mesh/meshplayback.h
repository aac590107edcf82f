#pragma once
// A mesh engine run played on the heatmap: the Dataflow layer's picture of
// what the engine executed, core by core, instead of the closed forms'
// region-wide activity. Its timeline is the run's phases as a schedule: each
// phase over the regions the closed-form schedule gives it (MeshPhase::step)
// but timed by the engine, from the previous phase's last event to its own,
// so the Dataflow dock's timeline, phase steps and hop arrows work as they do
// for the closed forms. A frame's per-core activity comes from the events
// themselves (meshfabric.h): a core whose compute event runs at the cycle
// glows as computing; a message or multicast lights the cores its head has
// passed on its route (x first, then y: the fabric's routing), so a
// reduction's partial sums are seen crossing a region as a wavefront; each
// fades over the trail after its event ended. The values follow MeshFrame's
// encoding (compute 0.5..1, forward 0..0.5, idle 0), the stronger one where
// several events meet on a core. The events are indexed once per run by time
// (meshglow.h), so a frame reads the events of its trail window only.
//
// The same run gives the Links and Values layers, which do not move: the
// words every mesh link carried for the token (per core, the words leaving
// its router on its four links) and, for a run with a loaded model's weights
// (meshvalues.h), the signed sum of the partial products each core computed.

#include "engine/wafer/dataflow/meshframe.h"
#include "engine/wafer/mesh/meshengine.h"
#include "engine/wafer/mesh/meshglow.h"

#include <memory>
#include <vector>

namespace ws {

class MeshPlayback
{
public:
    // values: what each core computed (a values-mode run, meshvalues.h); empty for a timing-only run.
    explicit MeshPlayback(std::shared_ptr<const MeshRun> run, std::vector<MeshCoreValue> values = {});

    const MeshRun& run() const { return *m_run; }
    // The executed phases as a schedule (start and end cycles from the engine).
    const TokenSchedule& schedule() const { return m_schedule; }
    std::shared_ptr<const TokenSchedule> sharedSchedule(const std::shared_ptr<const MeshPlayback>& self) const
    {
        return {self, &self->m_schedule};
    }

    // Per-core values (meshCols x meshRows, row-major) of options.device at options.cycle (modulo the run's cycles)
    // with a glow reaching options.trailCycles back; cores outside the mesh are left out.
    void fillGlow(int meshCols, int meshRows, const DataflowFrameOptions& options, std::vector<float>& out) const;
    // The frame's overlay from the events, the hops of the moment from the executed schedule.
    void fillFrame(MeshFrame& frame, const DataflowFrameOptions& options) const;

    bool hasValues() const { return !m_values.empty(); }
    const std::vector<MeshCoreValue>& values() const { return m_values; }
    // Every mesh link that carried words (wafer-to-wafer links are the hops' arrows), heatmap coordinates.
    const std::vector<MeshLinkLoad>& linkLoads() const { return m_links; }
    // The most words leaving one core's router, and the largest |signed sum| of one core's partial products.
    double maxRouterWords() const { return m_maxRouterWords; }
    double maxAbsValue() const { return m_maxAbsValue; }
    // The Links or Values layer of `device` (activity of that device only, overlayTop, the device's links);
    // the frame keeps its base. Values without values: the device's cores as "no data" (NaN).
    void fillLayer(MeshFrame& frame, MeshLayer layer, int device) const;

    // One core's messages in the run (a multicast counts once for its source and once per receiver it ends at),
    // the words they carried, and the words leaving its router (its own and those it forwarded).
    struct CoreTraffic
    {
        int messagesOut = 0;
        int messagesIn = 0;
        double wordsOut = 0;
        double wordsIn = 0;
        double routerWords = 0;
    };
    CoreTraffic coreTraffic(int fabricCore) const; // index into run().fabric->cores()
    // What the core at heatmap (x, y) of `device` computed (values runs); null when it computed nothing.
    const MeshCoreValue* valueAt(int device, int x, int y) const;

private:
    std::shared_ptr<const MeshRun> m_run;
    TokenSchedule m_schedule;
    MeshGlow m_glow; // the events indexed for frames
    std::vector<MeshCoreValue> m_values;
    std::vector<MeshLinkLoad> m_links;
    double m_maxRouterWords = 0;
    double m_maxAbsValue = 0;
};

} // namespace ws
