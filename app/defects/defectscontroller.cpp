#include "app/defects/defectscontroller.h"

#include "app/common/backgroundfree.h"

#include "engine/scene/defectsanswer.h"
#include "engine/wafer/redundancy/defectlayer.h"

#include <algorithm>

namespace ws {

namespace {

// Per heatmap cell: the displacement of the logical core the cell's physical core hosts.
std::shared_ptr<const views::CoreDisplacement> displacementOf(const MeshSnapshot& s, int device, const Remap& remap)
{
    auto d = std::make_shared<views::CoreDisplacement>();
    d->device = device;
    d->cols = s.meshCols;
    d->rows = s.meshRows;
    d->dx.assign(size_t(s.meshCols) * size_t(s.meshRows), 0);
    d->dy.assign(d->dx.size(), 0);
    const auto cells = CellToCore::of(s.meshCols, s.meshRows, remap.layout());
    if (!cells)
        return d; // a mesh of another size: no arrows
    for (int y = 0; y < s.meshRows; ++y) {
        for (int x = 0; x < s.meshCols; ++x) {
            const int32_t index = cells->physicalIndex(x, y);
            if (index < 0)
                continue;
            if (remap.state(index) != CoreState::Shifted)
                continue;
            const size_t i = size_t(y) * size_t(s.meshCols) + size_t(x);
            d->dx[i] = int8_t(std::clamp(remap.displacementX(index), -127, 127));
            d->dy[i] = int8_t(std::clamp(remap.displacementY(index), -127, 127));
        }
    }
    return d;
}

} // namespace

DefectsOutcome computeDefectsOutcome(const DefectsContext& c, const DefectRequest& defects, const SpareLayout& layout,
                                     bool withYieldCurves, PlacementCache* placements)
{
    DefectsOutcome out;
    out.defects = defects;
    if (withYieldCurves) {
        YieldCurveRequest request;
        request.layout = layout;
        if (auto curves = computeYieldCurves(request))
            out.yieldCurves = std::make_shared<const YieldCurves>(std::move(*curves));
    }
    ScenarioSpec spec = c.spec;
    const bool same = spec.defects == defects;
    spec.defects = defects;
    static_cast<DefectsAnswer&>(out) = answerDefects(spec, c.device, placements, same ? c.scene : nullptr);
    if (out.scene) {
        out.snapshot = out.scene->snapshot;
        if (const Remap* shown = out.scene->remap(c.device))
            out.displacement = displacementOf(*out.snapshot, c.device, *shown);
    } else if (out.remap && c.snapshot) {
        // No placement fits around them: where the dead cores are, over the scenario's last placement.
        auto snapshot = std::make_shared<MeshSnapshot>(*c.snapshot);
        if (fillDefectLayer(*snapshot, c.device, *out.remap))
            out.snapshot = std::move(snapshot);
        out.displacement = displacementOf(*c.snapshot, c.device, *out.remap);
    }
    return out;
}

DefectsController::DefectsController(QObject* parent)
    : QObject(parent), m_jobs(this), m_placements(std::make_shared<PlacementCache>())
{
    m_jobs.onBusyChanged([this](bool busy) { emit busyChanged(busy); });
}

DefectsController::~DefectsController() = default;

Status DefectsController::setContext(DefectsContext context)
{
    if (context.spec.hardware.kind != HardwareKind::Wafer)
        return makeError(ErrorCode::InvalidArgument, "defects apply to wafers only", "hardware");
    if (!context.snapshot && context.scene)
        context.snapshot = context.scene->snapshot;
    // The scene this controller answered with, now on stage: nothing to do again.
    const bool ours = m_outcome && context.scene && context.scene == m_outcome->scene && m_context &&
                      m_context->device == context.device;
    const bool sameWafer = m_context && m_editor && m_context->spec.hardware.id == context.spec.hardware.id &&
                           m_context->device == context.device;
    const bool sameDefects = sameWafer && defects() == context.spec.defects;
    m_context = std::move(context);
    if (ours) { // its spec's defects are the edit's now
        m_edited = false;
        return Ok{};
    }
    if (!sameDefects) {
        m_scheme = m_context->spec.defects.scheme;
        m_dieSpares = m_context->spec.defects.dieSpares;
        if (Status s = rebuildEditor(m_context->spec.defects); !s)
            return s;
        m_curvesStale = true;
        emit historyChanged();
    }
    m_edited = false;
    start();
    return Ok{};
}

DefectRequest DefectsController::defects() const
{
    if (!m_context)
        return {};
    DefectRequest d = m_context->spec.defects;
    if (!m_edited || !m_editor)
        return d;
    d.scheme = m_scheme;
    d.dieSpares = m_dieSpares;
    return d.withDevice(m_context->device, m_editor->defects());
}

Status DefectsController::rebuildEditor(const DefectRequest& defects)
{
    if (!m_context)
        return makeError(ErrorCode::InvalidArgument, "no placement to put defects on");
    DefectRequest scheme = defects;
    scheme.scheme = m_scheme;
    scheme.dieSpares = m_dieSpares;
    auto layout = scheme.spareLayout(m_context->spec.hardware.wafer);
    if (!layout) {
        m_editor.reset();
        return layout.error();
    }
    // The wafer's own dead cores when the scheme is the defects'; a new scheme starts empty.
    auto map = scheme == defects ? defects.deadCores(*layout, m_context->device) : DefectMap::forLayout(*layout);
    if (!map) {
        m_editor.reset();
        return map.error();
    }
    m_editor = std::make_unique<DefectEditor>(*layout, std::move(*map));
    return Ok{};
}

Status DefectsController::setScheme(SpareScheme scheme, int dieSpares)
{
    if (dieSpares < 0)
        return makeError(ErrorCode::InvalidArgument, "spare rows and columns per die cannot be negative", "dieSpares");
    m_scheme = scheme;
    m_dieSpares = dieSpares;
    if (!m_context)
        return Ok{};
    Status s = rebuildEditor(m_context->spec.defects);
    m_curvesStale = true;
    m_edited = true;
    emit historyChanged();
    if (s)
        start();
    return s;
}

Status DefectsController::edited(Status status)
{
    m_edited = true;
    emit historyChanged();
    if (status)
        start();
    return status;
}

namespace {
Status noEditor()
{
    return makeError(ErrorCode::InvalidArgument, "no wafer placement to put defects on");
}
} // namespace

Status DefectsController::injectPoisson(double d0, uint64_t seed)
{
    return m_editor ? edited(m_editor->injectPoisson(d0, seed)) : noEditor();
}

Status DefectsController::injectClustered(double d0, double alpha, uint64_t seed)
{
    return m_editor ? edited(m_editor->injectClustered(d0, alpha, ClusterScope::Die, seed)) : noEditor();
}

Status DefectsController::injectRandom(double deadFraction, uint64_t seed)
{
    return m_editor ? edited(m_editor->injectRandom(deadFraction, seed)) : noEditor();
}

Status DefectsController::killDie(int dieX, int dieY)
{
    return m_editor ? edited(m_editor->killDie(dieX, dieY)) : noEditor();
}

Status DefectsController::setCores(const std::vector<PhysicalCore>& cores, bool dead)
{
    return m_editor ? edited(m_editor->setCores(cores, dead)) : noEditor();
}

Status DefectsController::setMeshRect(QRect cells, bool dead)
{
    if (!m_editor || !m_context || !m_context->snapshot)
        return noEditor();
    const SpareLayout& l = m_editor->layout();
    const MeshSnapshot& s = *m_context->snapshot;
    const auto map = CellToCore::of(s.meshCols, s.meshRows, l);
    if (!map)
        return map.error();
    cells = cells.normalized().intersected(QRect(0, 0, s.meshCols, s.meshRows));
    if (cells.isEmpty())
        return makeError(ErrorCode::OutOfRange, "the brushed cells are off the mesh");
    const int x0 = map->physicalX(cells.left());
    const int y0 = map->physicalY(cells.top());
    const int x1 = map->physicalX(cells.right());
    const int y1 = map->physicalY(cells.bottom());
    return edited(m_editor->setRect(PhysicalRect{x0, y0, x1 - x0 + 1, y1 - y0 + 1}, dead));
}

Status DefectsController::clear()
{
    return m_editor ? edited(m_editor->clear()) : noEditor();
}

bool DefectsController::undo()
{
    if (!m_editor || !m_editor->undo())
        return false;
    edited(Ok{});
    return true;
}

bool DefectsController::redo()
{
    if (!m_editor || !m_editor->redo())
        return false;
    edited(Ok{});
    return true;
}

void DefectsController::start()
{
    if (!m_editor || !m_context)
        return;
    const bool curves = m_curvesStale;
    m_curvesStale = false;
    const JobTracker::JobId id = m_jobs.start(
        [context = *m_context, layout = m_editor->layout(), defects = defects(), curves,
         placements = m_placements](JobTracker::JobId job) {
            DefectsOutcome outcome = computeDefectsOutcome(context, defects, layout, curves, placements.get());
            outcome.requestId = job;
            return outcome;
        },
        [this](DefectsOutcome outcome) { acceptOutcome(std::move(outcome)); },
        [this](DefectsOutcome outcome) { acceptOutcome(std::move(outcome)); });
    if (curves)
        m_curvesRequestId = id;
}

bool DefectsController::acceptOutcome(DefectsOutcome outcome)
{
    // The layout's curves stay valid for later maps of the same layout; a newer layout's replace them.
    if (outcome.yieldCurves && outcome.requestId == m_curvesRequestId)
        m_yieldCurves = outcome.yieldCurves;
    if (outcome.requestId != m_jobs.latestId())
        return false; // a newer edit is on its way: drop this one
    // The outcome let go here holds the last remap's scene and snapshot: freed on the background pool, not in
    // this callback (perf on a tour's open step: 5.7 ms of the GUI thread's CPU, nearly all munmap).
    m_outcome = makeSharedFreedInBackground<DefectsOutcome>(std::move(outcome));
    emit outcomeChanged();
    return true;
}

} // namespace ws
