#include "app/dataflow/dataflowdock.h"

#include "app/export/chartexport.h"
#include "app/stage/stage.h"

#include "views/charts/chartcard.h"
#include "views/dataflow/dataflowtables.h"
#include "views/dataflow/playbackbar.h"
#include "views/dataflow/timelinechart.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"
#include "views/widgets/elidedlabel.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ws {

DataflowDock::DataflowDock(Stage* stage, QWidget* parent)
    : QDockWidget(parent), m_stage(stage), m_prepared(stage, Stage::FrameSource::Dataflow)
{
    setObjectName(QStringLiteral("dataflowDock"));
    connect(m_stage, &Stage::resultChanged, this, &DataflowDock::setResult);
    connect(m_stage, &Stage::layerChanged, this, &DataflowDock::layerChanged);
    connect(m_stage, &Stage::deviceChanged, this, &DataflowDock::deviceChanged);
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    m_bar = new views::PlaybackBar(body);
    layout->addWidget(m_bar);

    auto* row = new QHBoxLayout;
    m_source = new QComboBox(body);
    m_source->setObjectName(QStringLiteral("dataflowSource"));
    m_source->addItems({QString(), QString(), QString()});
    m_layer = new QSpinBox(body);
    m_layer->setObjectName(QStringLiteral("dataflowLayer"));
    m_layer->setRange(0, 9999); // a layer the model lacks: the engine says so
    m_layer->setVisible(false);
    row->addWidget(m_source);
    row->addWidget(m_layer);
    m_kv = new QComboBox(body);
    m_kv->addItems({QString(), QString()});
    m_kvLabel = new views::ElidedLabel(body); // the row's room left, ending in "…" where that is too narrow
    // Its whole text where there is room, elided where not (an error is long): it never makes the dock scroll.
    m_frameLabel = new views::ElidedLabel(body);
    m_frameLabel->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    m_frameLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    row->addWidget(m_kv);
    row->addWidget(m_kvLabel, 1);
    row->addWidget(m_frameLabel);
    layout->addLayout(row);

    m_tabs = new QTabWidget(body);
    m_timeline = new views::TimelineChart(m_tabs);
    m_breakdown = new QTableWidget(m_tabs);
    m_params = new QTableWidget(m_tabs);
    for (QTableWidget* t : {m_breakdown, m_params}) {
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->verticalHeader()->setVisible(false);
        t->horizontalHeader()->setStretchLastSection(true);
    }
    m_tabs->addTab(m_timeline, QString());
    // Each table in a card with an Export button: the same ChartTable is shown and exported.
    for (auto [widget, table] : {std::pair{m_breakdown, &m_breakdownRows}, std::pair{m_params, &m_paramRows}}) {
        auto* card = new views::ChartCard(widget, m_tabs);
        connect(card, &views::ChartCard::exportRequested, this, [this, card, table] {
            ChartExport::askAndWrite(this, card->content(), table->exported(), nullptr,
                                     m_tabs->tabText(m_tabs->indexOf(card)));
        });
        m_tabs->addTab(card, QString());
    }
    layout->addWidget(m_tabs, 1);
    setWidget(body);

    connect(m_bar, &views::PlaybackBar::playToggled, &m_controller, &DataflowController::togglePlay);
    connect(m_bar, &views::PlaybackBar::seekRequested, &m_controller, &DataflowController::seek);
    connect(m_bar, &views::PlaybackBar::stepRequested, &m_controller, &DataflowController::stepPhase);
    connect(m_bar, &views::PlaybackBar::dilationRequested, &m_controller,
            &DataflowController::setWaferSecondsPerSecond);
    connect(m_timeline, &views::TimelineChart::seekRequested, &m_controller, &DataflowController::seek);
    connect(&m_controller, &DataflowController::frameReady, this, &DataflowDock::showFrame);
    connect(&m_prepared, &PreparedFrames::shown, this, [this](auto frame) { m_lastFrame = std::move(frame); });
    connect(&m_controller, &DataflowController::stateChanged, this, &DataflowDock::updateState);
    connect(&m_controller, &DataflowController::tokenMovedTo, m_stage, &Stage::setDevice); // the view follows it
    connect(m_source, &QComboBox::currentIndexChanged, this, [this](int index) { setSource(index, m_layer->value()); });
    connect(m_layer, &QSpinBox::valueChanged, this, [this] {
        if (m_source->currentIndex() == 1) {
            m_focusPending = true;
            rebuild();
        }
    });
    connect(m_kv, &QComboBox::currentIndexChanged, this,
            [this](int index) { setKvPlacement(index == 1 ? KvPlacement::Concat : KvPlacement::Shift); });

    // Playback from the window (View > Dataflow Playback): enabled while the dock is shown.
    QWidget* window = parent ? parent : this;
    auto action = [this, window](QAction*& a, const char* name, Qt::Key key, auto slot) {
        a = new QAction(this);
        a->setObjectName(QLatin1String(name));
        a->setShortcut(QKeySequence(key));
        a->setShortcutContext(Qt::WindowShortcut);
        a->setEnabled(false);
        window->addAction(a);
        connect(a, &QAction::triggered, this, slot);
    };
    action(m_playAction, "dataflowPlayAction", Qt::Key_Space, [this] { m_controller.togglePlay(); });
    action(m_backAction, "dataflowStepBackAction", Qt::Key_Left, [this] { m_controller.stepPhase(-1); });
    action(m_forwardAction, "dataflowStepForwardAction", Qt::Key_Right, [this] { m_controller.stepPhase(+1); });
    retranslate();
}

void DataflowDock::setResult(std::shared_ptr<const PlacementResult> result)
{
    m_result = std::move(result);
    rebuild();
}

void DataflowDock::setKvPlacement(KvPlacement kv)
{
    if (kv == m_kvPlacement)
        return;
    m_kvPlacement = kv;
    m_kv->setCurrentIndex(kv == KvPlacement::Concat ? 1 : 0);
    rebuild();
}

void DataflowDock::setWeightsFile(const QString& path)
{
    if (path == m_weightsFile)
        return;
    m_weightsFile = path;
    if (m_stage->layer() == MeshLayer::Values)
        rebuild();
}

void DataflowDock::setValuesTurn(ValuesTurn turn)
{
    m_valuesTurn = std::move(turn);
    // This turn's picture now, or when the Values layer is next chosen (a values run of an older one is replaced).
    const bool olderValues = m_setup && m_setup->executed && m_setup->executed->hasValues();
    if (source() == 1 && (m_stage->layer() == MeshLayer::Values || olderValues))
        rebuild();
}

void DataflowDock::setSource(int source, int layer)
{
    const bool executed = source == 1;
    const DataflowController::FrameBatch batch(m_controller); // the pace and the schedule: one frame
    const QSignalBlocker blockSource(m_source), blockLayer(m_layer);
    m_source->setCurrentIndex(std::clamp(source, 0, 2));
    m_layer->setValue(layer);
    m_layer->setVisible(executed);
    m_kv->setVisible(!executed);
    // A token plays in about 16 s at 100 us of wafer time a second; one layer executed, at 1 us a second; the
    // prompt at its own pace (rebuild).
    m_controller.setWaferSecondsPerSecond(executed ? 1e-6 : 1e-4);
    m_focusPending = executed;
    rebuild();
}

int DataflowDock::source() const
{
    return std::max(0, m_source->currentIndex());
}

int DataflowDock::executedLayer() const
{
    return m_layer->value();
}

void DataflowDock::rebuild()
{
    m_setup.reset();
    m_error.clear();
    m_jobs.cancel();
    // The whole token's schedule gives the wafer links' labels, whichever source plays.
    if (!m_result) {
        m_closed = {};
    } else if (m_closed.result != m_result.get() || m_closed.kv != m_kvPlacement) {
        m_closed = {m_result.get(), m_kvPlacement, std::nullopt, QString()};
        m_closed.setup = buildDataflowSetup(*m_result, m_kvPlacement, &m_closed.error);
    }
    const std::optional<DataflowSetup>& closed = m_closed.setup;
    m_error = m_closed.error;
    m_waferLinks = closed ? closed->waferLinks : std::vector<DataflowSetup::WaferLink>{};
    m_tokenCycles = closed ? closed->schedule->totalCycles : 0.0;
    emitWaferLinks();
    if (m_result && m_source->currentIndex() == 1) {
        m_error.clear();
        const QString weights = m_stage->layer() == MeshLayer::Values ? m_weightsFile : QString();
        m_builtValues = m_stage->layer() == MeshLayer::Values;
        m_jobs.start(
            [result = m_result, layer = m_layer->value(), values = m_stage->layer() == MeshLayer::Values, weights,
             turn = m_valuesTurn] {
                QString error;
                auto setup = values ? buildValuesSetup(*result, weights, turn, layer, &error)
                                    : buildExecutedSetup(*result, layer, &error);
                return std::make_pair(std::move(setup), error);
            },
            [this](std::pair<std::optional<DataflowSetup>, QString> made) {
                const DataflowController::FrameBatch batch(m_controller); // the run and the wafer it is on
                m_setup = std::move(made.first);
                m_error = made.second;
                apply();
                if (m_setup) {
                    focusExecutedLayer();
                    m_controller.play();
                }
            });
    } else if (m_result && m_source->currentIndex() == 2) {
        m_error.clear();
        m_setup = buildPrefillSetup(*m_result, m_kvPlacement, &m_error);
        if (m_setup)
            m_controller.setWaferSecondsPerSecond(
                views::PlaybackBar::nearestDilation(m_setup->schedule->seconds() / kPrefillPlaySeconds));
    } else {
        m_setup = closed;
    }
    apply();
}

// Up close on the executed layer's region (on its wafer), once per choice of source or layer.
void DataflowDock::focusExecutedLayer()
{
    if (!m_focusPending || !m_setup || !m_setup->executed || m_setup->schedule->phases.empty())
        return;
    m_focusPending = false;
    // Copies: changing the device can rebuild the setup (layerChanged), which frees the schedule.
    const CoreRect r = m_setup->schedule->phases.front().rect;
    const int device = m_setup->schedule->phases.front().device;
    const views::MeshView* view = m_stage->view();
    const double fit = view->transform().fitScale();
    if (r.width <= 0 || r.height <= 0 || view->width() <= 0 || !(fit > 0))
        return;
    m_stage->setDevice(device);
    const double scale = 0.9 * view->transform().scaleToShow(QSizeF(r.width, r.height)); // turned or not
    m_stage->setViewState(scale / fit, QPointF(r.x + r.width / 2.0, r.y + r.height / 2.0));
}

void DataflowDock::apply()
{
    // While a run is on its way the picture before stays (no base: no frame). With none coming (an error: the
    // Values layer without weights), the placement with nothing lit, not the last frame of another layer.
    const bool frames = m_result && (m_setup || !m_jobs.isBusy());
    m_controller.setSchedule(m_setup ? m_setup->schedule : nullptr, frames ? m_result->snapshot : nullptr,
                             m_setup ? m_setup->executed : nullptr);
    m_timeline->setSchedule(m_setup ? m_setup->schedule : nullptr);
    fillTables();
    updateState();
    emit executedChanged(m_setup ? m_setup->executed : nullptr, m_setup ? m_setup->executedLayer : -1);
}

void DataflowDock::layerChanged()
{
    followStage(true);
}

void DataflowDock::deviceChanged()
{
    // Not shown again: the token crossing to the next wafer (the view following it) would bring back a dock the
    // user closed, and in the modes without it make it flash at every hop (shown, then hidden by the mode).
    followStage(false);
}

void DataflowDock::followStage(bool showWithLayer)
{
    // The panel belongs to the Dataflow layer and the engine's still pictures (Links, Values): it shows with
    // them; it plays only on the Dataflow layer.
    const MeshLayer layer = m_stage->layer();
    const bool dataflow = layer == MeshLayer::Dataflow;
    if (showWithLayer && m_showsWithLayer)
        setVisible(isFrameLayer(layer));
    for (QAction* a : playbackActions())
        a->setEnabled(dataflow);
    {
        const DataflowController::FrameBatch batch(m_controller); // the overlay, the wafer, the source: one frame
        if (!dataflow)
            m_controller.pause();
        m_controller.setOverlay(layer);
        if (isFrameLayer(layer))
            m_controller.setDevice(m_stage->device());
        const bool values = layer == MeshLayer::Values;
        if (isFrameLayer(layer) && !dataflow && source() != 1)
            setSource(1, m_layer->value()); // the still pictures are the mesh engine's
        else if (values && m_result && source() == 1 && m_setup && m_setup->executed &&
                 !m_setup->executed->hasValues() && !m_jobs.isBusy())
            rebuild(); // a values run (it serves Links and Dataflow as well)
        else if (isFrameLayer(layer) && !values && m_result && source() == 1 && !m_setup && m_builtValues &&
                 !m_jobs.isBusy())
            rebuild(); // the values run failed (no weights): these layers need only the timing run
    }
    if (!m_controller.isFramePending()) // else an enclosing batch shows it when it ends
        showFrame(m_controller.currentFrame());
}

void DataflowDock::showFrame(std::shared_ptr<const MeshFrame> frame)
{
    if (!frame || !isFrameLayer(m_stage->layer()))
        return;
    // Another part (the defects remap) may have put its own snapshot of the same mesh in the view: play on that one.
    const auto shown = m_stage->view()->frame();
    const MeshSnapshot& base = *frame->base;
    if (shown && shown != m_lastFrame && shown->base != frame->base && shown->base != m_adoptedBase &&
        shown->base->meshCols == base.meshCols && shown->base->meshRows == base.meshRows &&
        shown->base->deviceCount == base.deviceCount) {
        m_adoptedBase = shown->base;
        m_controller.setSchedule(m_controller.schedule(), shown->base,
                                 m_controller.executed()); // renders again on the new base
        return;
    }
    if (m_stage->device() != m_controller.device()) {
        m_controller.setDevice(m_stage->device()); // renders again for the visible device
        return;
    }
    if (m_controller.isAnimating())
        return m_prepared.submit(std::move(frame)); // its image made off the GUI thread
    m_prepared.cancel();
    m_lastFrame = frame;
    m_stage->showFrame(Stage::FrameSource::Dataflow, std::move(frame));
}

void DataflowDock::updateState()
{
    views::PlaybackState s;
    s.cycle = m_controller.cycle();
    s.totalCycles = m_controller.totalCycles();
    s.playing = m_controller.isPlaying();
    s.waferSecondsPerSecond = m_controller.waferSecondsPerSecond();
    if (const auto schedule = m_controller.schedule()) {
        s.clockHz = schedule->clockHz;
        const int phase = m_controller.currentPhase();
        if (phase >= 0)
            s.phase = views::phaseLabel(schedule->phases[size_t(phase)]);
    }
    m_bar->setState(s);
    m_timeline->setCursorCycle(s.cycle);
    const QLocale locale;
    QString text = tr("frame %1 ms").arg(locale.toString(m_controller.lastFrameMs(), 'f', 1));
    if (m_jobs.isBusy() && m_stage->layer() == MeshLayer::Values)
        text = tr("computing the values of \"%1\" on the mesh engine, layer %2 timed…")
                   .arg(m_valuesTurn.label)
                   .arg(m_layer->value());
    else if (m_jobs.isBusy())
        text = tr("executing layer %1 on the mesh engine…").arg(m_layer->value());
    else if (!m_error.isEmpty())
        text = m_error;
    else if (m_setup && m_setup->executed)
        text = tr("layer %1 executed: %2 cycles (closed forms %3) · %4")
                   .arg(m_setup->executedLayer)
                   .arg(locale.toString(qint64(std::llround(m_setup->executed->run().totalCycles))),
                        locale.toString(qint64(std::llround(m_setup->closedFormCycles))), text) +
               (m_setup->executed->hasValues()
                    ? tr(" · values of token %1 of \"%2\"")
                              .arg(m_setup->valuesDropped + m_setup->valuesTokens)
                              .arg(m_valuesTurn.label) +
                          (m_setup->valuesDropped > 0 ? tr(" (its last %1 decoded)").arg(m_setup->valuesTokens)
                                                      : QString())
                    : QString());
    m_frameLabel->setText(text);
    m_frameLabel->setToolTip(text); // the whole line where the dock is too narrow for it
}

void DataflowDock::fillTables()
{
    const QLocale locale;
    m_kvLabel->clear();
    m_kvLabel->setToolTip(QString());
    m_breakdownRows = views::DataflowTables::phaseCycles(m_setup ? *m_setup->schedule : TokenSchedule{});
    m_paramRows = views::DataflowTables::timingConstants(m_setup ? m_setup->params : std::vector<ParamInfo>{});
    views::showTable(m_breakdown, m_breakdownRows);
    views::showTable(m_params, m_paramRows);
    if (!m_setup)
        return;
    if (m_setup->prefill)
        showPrefillSummary();
    if (m_setup->kv) {
        m_kvLabel->setText(tr("KV capacity of layer 0's region (%1 × %2 cores): concat %3 tokens, shift %4 tokens")
                               .arg(m_setup->kv->cols)
                               .arg(m_setup->kv->rows)
                               .arg(locale.toString(qint64(m_setup->kv->concatTokens)),
                                    locale.toString(qint64(m_setup->kv->shiftTokens))));
        m_kvLabel->setToolTip(m_kvLabel->text());
    }
}

} // namespace ws
