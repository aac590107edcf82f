#include "app/defects/defectsdock.h"

#include "app/export/chartexport.h"
#include "app/stage/stage.h"
#include "views/defects/defectspanel.h"
#include "views/defects/yieldpanel.h"
#include "views/mesh/meshview.h"

#include <QEvent>

#include <spdlog/spdlog.h>

namespace ws {

namespace {

views::DefectsPanelNumbers numbersOf(const DefectsOutcome* o)
{
    views::DefectsPanelNumbers n;
    if (!o)
        return n;
    n.valid = o->remapped();
    n.summary = o->summary;
    n.usableCols = o->usableMesh.cols;
    n.usableRows = o->usableMesh.rows;
    n.hopStretch = o->hopStretch;
    n.secondsPerTokenBefore = o->secondsPerTokenBefore;
    n.secondsPerTokenAfter = o->secondsPerTokenAfter;
    n.devicesBefore = o->devicesBefore;
    n.devicesAfter = o->devicesAfter;
    n.error = QString::fromStdString(o->error);
    n.predictionError = QString::fromStdString(o->predictionError);
    return n;
}

} // namespace

DefectsDock::DefectsDock(Stage* stage, QWidget* parent) : QDockWidget(parent), m_stage(stage)
{
    setObjectName(QStringLiteral("defectsDock"));
    m_panel = new views::DefectsPanel(this);
    m_controller = new DefectsController(this);
    m_panel->setMinimumWidth(400);
    setWidget(m_panel);
    setWindowTitle(tr("Defects"));

    auto act = [this](const Status& s) {
        emit defectsLayerRequested();
        report(s);
    };
    connect(m_panel, &views::DefectsPanel::poissonRequested, this,
            [this, act](double d0, quint64 seed) { act(m_controller->injectPoisson(d0, seed)); });
    connect(
        m_panel, &views::DefectsPanel::clusteredRequested, this,
        [this, act](double d0, double alpha, quint64 seed) { act(m_controller->injectClustered(d0, alpha, seed)); });
    connect(m_panel, &views::DefectsPanel::dieRequested, this,
            [this, act](int x, int y) { act(m_controller->killDie(x, y)); });
    connect(m_panel, &views::DefectsPanel::clearRequested, this, [this, act] { act(m_controller->clear()); });
    connect(m_panel, &views::DefectsPanel::undoRequested, this, [this] { m_controller->undo(); });
    connect(m_panel, &views::DefectsPanel::redoRequested, this, [this] { m_controller->redo(); });
    connect(m_panel, &views::DefectsPanel::schemeRequested, this, [this, act](int scheme, int spares) {
        act(m_controller->setScheme(
            scheme == views::DefectsPanel::DieRowColumn ? SpareScheme::DieRowColumn : SpareScheme::RowShift, spares));
    });
    connect(m_panel, &views::DefectsPanel::exportRequested, this,
            [this](QWidget* content, const views::ChartData& data, const QString& title) {
                ChartExport::askAndWrite(this, content, data, nullptr, title);
            });
    connect(m_panel, &views::DefectsPanel::brushChanged, this, [this](bool active, bool) {
        m_stage->setBrushMode(active);
        if (active)
            emit defectsLayerRequested();
    });
    connect(m_stage, &Stage::resultChanged, this, [this](std::shared_ptr<const PlacementResult> r) {
        // The wafer the dock edits stays the one it edits (the brush moves it), while the new scene has it.
        const int edited = m_controller->contextDevice();
        const int device = r && edited >= 0 && edited < r->devices ? edited : m_stage->device();
        setPlacement(std::move(r), device);
    });
    connect(m_stage->view(), &views::MeshView::brushed, this, [this](int device, QRect cores) {
        if (m_result && m_controller->contextDevice() != device)
            setPlacement(m_result, device); // the brush edits the wafer it is on
        report(m_controller->setMeshRect(cores, m_panel->brushKills()));
    });
    connect(m_controller, &DefectsController::historyChanged, this,
            [this] { m_panel->setHistory(m_controller->canUndo(), m_controller->canRedo()); });
    connect(m_controller, &DefectsController::outcomeChanged, this, &DefectsDock::showOutcome);
    connect(m_controller, &DefectsController::busyChanged, this, [this](bool busy) {
        if (!busy)
            emit idle();
    });
}

void DefectsDock::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        setWindowTitle(tr("Defects"));
    QDockWidget::changeEvent(event);
}

void DefectsDock::setPlacement(std::shared_ptr<const PlacementResult> result, int device)
{
    m_result = std::move(result);
    if (!m_result)
        return;
    DefectsContext c;
    c.spec = m_result->spec();
    c.scene = m_result->scene;
    c.snapshot = m_result->snapshot;
    c.device = device;
    if (c.spec.defects.any() && m_controller->defects() != c.spec.defects)
        raise(); // a scenario with defects of its own: show what they do
    report(m_controller->setContext(std::move(c)));
    if (const SpareLayout* l = m_controller->layout())
        m_panel->setWafer(QString::fromStdString(m_result->hardware().name), l->coreAreaMm2(), l->diesX(), l->diesY(),
                          l->segmentPrimaryCores(), l->segmentSpareCores());
}

void DefectsDock::report(const Status& status)
{
    if (status)
        return;
    m_lastError = QString::fromStdString(status.error().message());
    spdlog::warn("defects: {}", m_lastError.toStdString());
    views::DefectsPanelNumbers n = numbersOf(m_controller->outcome().get());
    n.error = m_lastError;
    m_panel->setNumbers(n);
}

void DefectsDock::showOutcome()
{
    const auto o = m_controller->outcome();
    if (!o)
        return;
    views::DefectsPanelNumbers n = numbersOf(o.get());
    n.busy = m_controller->isBusy();
    m_panel->setNumbers(n);
    if (auto curves = m_controller->yieldCurves(); curves && curves != m_panel->yieldPanel()->curves())
        m_panel->setYieldCurves(curves);
    // An edit's answer becomes the scenario's defects and its scene goes on the stage (then this is called
    // again by nothing: the controller knows its own scene). A failed one leaves the stage as it is.
    const bool shown = m_result && m_result->scene && m_result->scene == o->scene;
    if (o->scene && !shown && (!m_result || m_result->spec().defects != o->defects))
        emit defectsChanged(o->defects, o->scene);
    m_stage->showDefects(nullptr, o->displacement);
    if (const QString problem = QString::fromStdString(o->error); problem != m_problem) {
        m_problem = problem;
        emit problemChanged(m_problem);
    }
}

} // namespace ws
