#include "app/defects/defectscontroller.h"

#include "engine/predict/predictor.h"
#include "engine/predict/waferpredictor.h"
#include "engine/wafer/redundancy/defectlayer.h"
#include "engine/wafer/redundancy/defectplacement.h"

#include <algorithm>

namespace ws {

namespace {

QString text(const Error& e)
{
    return QString::fromStdString(e.message());
}

// Hop stretch of the remap over the layer regions the placement makes on the remapped usable mesh.
double regionStretch(const DefectsContext& c, const SpareLayout& layout, const Remap& remap, MeshSize usable,
                     PlacementCache* placements)
{
    WaferPredictOptions o;
    o.placements = placements;
    o.usableCols = usable.cols;
    o.usableRows = usable.rows;
    auto setup = prepareWafer(c.spec.model, c.spec.hardware, c.spec.workload, o);
    if (!setup)
        return 1.0;
    std::vector<LogicalRect> regions; // in usable (placement) coordinates
    for (const RegionRef& r : setup->layout.layers)
        regions.push_back(
            {r.rect.x - layout.reservedLeft(), r.rect.y - layout.reservedTop(), r.rect.width, r.rect.height});
    return regionHopStretch(remap, regions).max();
}

// Per heatmap cell: the displacement of the logical core the cell's physical core hosts.
std::shared_ptr<const views::CoreDisplacement> displacementOf(const MeshSnapshot& s, int device, const SpareLayout& l,
                                                              const Remap& remap)
{
    auto d = std::make_shared<views::CoreDisplacement>();
    d->device = device;
    d->cols = s.meshCols;
    d->rows = s.meshRows;
    d->dx.assign(size_t(s.meshCols) * size_t(s.meshRows), 0);
    d->dy.assign(d->dx.size(), 0);
    const auto cells = CellToCore::of(s.meshCols, s.meshRows, l);
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

DefectsOutcome computeDefectsOutcome(const DefectsContext& c, const SpareLayout& layout, const DefectMap& defects,
                                     bool withYieldCurves, PlacementCache* placements)
{
    DefectsOutcome out;
    if (withYieldCurves) {
        YieldCurveRequest request;
        request.layout = layout;
        if (auto curves = computeYieldCurves(request))
            out.yieldCurves = std::make_shared<const YieldCurves>(std::move(*curves));
    }
    auto remap = Remap::run(layout, defects);
    if (!remap) {
        out.error = text(remap.error());
        return out;
    }
    out.remapped = true;
    out.summary = remap->summary();
    const MeshSize usable = remap->usableLogicalMesh();
    out.usableCols = usable.cols;
    out.usableRows = usable.rows;
    if (c.snapshot) {
        auto snapshot = std::make_shared<MeshSnapshot>(*c.snapshot);
        if (const Status s = fillDefectLayer(*snapshot, c.device, *remap); !s)
            out.error = text(s.error());
        out.snapshot = std::move(snapshot);
        out.displacement = displacementOf(*c.snapshot, c.device, layout, *remap);
    }
    auto shared = std::make_shared<const Remap>(std::move(*remap));
    out.remap = shared;

    PredictOptions before;
    before.waferPlacements = placements;
    auto p0 = predict(c.spec.model, c.spec.hardware, c.spec.workload, before);
    if (p0) {
        out.secondsPerTokenBefore = p0->secondsPerToken;
        out.devicesBefore = p0->devices;
    } else
        out.predictionError = text(p0.error());
    if (usable.cols <= 0 || usable.rows <= 0) {
        if (out.error.isEmpty())
            out.error = QStringLiteral("the defects leave no usable mesh");
        return out;
    }
    out.hopStretch = regionStretch(c, layout, *shared, usable, placements);
    PredictOptions after;
    after.waferPlacements = placements;
    after.waferHopStretch = out.hopStretch;
    after.waferUsableCols = usable.cols;
    after.waferUsableRows = usable.rows;
    // The fewest wafers that hold the model on the smaller mesh: may be more than before (shown).
    auto p1 = predict(c.spec.model, c.spec.hardware, c.spec.workload, after);
    if (p1) {
        out.secondsPerTokenAfter = p1->secondsPerToken;
        out.devicesAfter = p1->devices;
    } else if (out.predictionError.isEmpty())
        out.predictionError = text(p1.error());
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
    const bool sameWafer = m_context && m_editor && m_context->spec.hardware.id == context.spec.hardware.id;
    m_context = std::move(context);
    if (!sameWafer) {
        if (Status s = rebuildEditor(); !s)
            return s;
        m_curvesStale = true;
        emit historyChanged();
    }
    start();
    return Ok{};
}

Status DefectsController::rebuildEditor()
{
    if (!m_context)
        return makeError(ErrorCode::InvalidArgument, "no placement to put defects on");
    auto layout =
        m_scheme == SpareScheme::RowShift
            ? SpareLayout::fromSpec(m_context->spec.hardware.wafer)
            : SpareLayout::dieRowColumnFromSpec(m_context->spec.hardware.wafer, DieSpares{m_dieSpares, m_dieSpares});
    if (!layout) {
        m_editor.reset();
        return layout.error();
    }
    m_editor = std::make_unique<DefectEditor>(*layout);
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
    Status s = rebuildEditor();
    m_curvesStale = true;
    emit historyChanged();
    if (s)
        start();
    return s;
}

Status DefectsController::edited(Status status)
{
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
        [context = *m_context, layout = m_editor->layout(), defects = m_editor->defects(), curves,
         placements = m_placements](JobTracker::JobId job) {
            DefectsOutcome outcome = computeDefectsOutcome(context, layout, defects, curves, placements.get());
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
    m_outcome = std::make_shared<const DefectsOutcome>(std::move(outcome));
    emit outcomeChanged();
    return true;
}

} // namespace ws
