#include "app/core/mainwindow.h"

#include "app/core/aboutdialog.h"
#include "app/core/inspectordock.h"
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/core/scenariobar.h"
#include "app/compare/comparecontroller.h"
#include "app/compare/comparisondocks.h"
#include "app/defects/defectsdock.h"
#include "app/dataflow/dataflowdock.h"
#include "app/scenario/filemenucontroller.h"
#include "app/record/widgetframesource.h"
#include "app/session/chatcontroller.h"
#include "app/session/runcontroller.h"
#include "views/chatpane.h"
#include "views/devicestrip.h"
#include "views/meshimage.h"
#include "views/meshview.h"
#include "views/racepane.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

#include <spdlog/spdlog.h>

#include <cmath>

namespace ws {

struct MainWindow::Actions
{
    QMenu* view = nullptr;
    QMenu* layers = nullptr;
    QMenu* language = nullptr;
    QMenu* help = nullptr;
    QToolBar* scenarioToolBar = nullptr;
    QToolBar* viewToolBar = nullptr;
    QAction* zoomIn = nullptr;
    QAction* zoomOut = nullptr;
    QAction* fit = nullptr;
    QAction* previousWafer = nullptr;
    QAction* nextWafer = nullptr;
    QAction* sram = nullptr;
    QAction* placement = nullptr;
    QAction* kv = nullptr;
    QActionGroup* layerGroup = nullptr;
    QActionGroup* languageGroup = nullptr;
    QAction* inspector = nullptr;
    QAction* about = nullptr;
};

using ResultPtr = std::shared_ptr<const Expected<PlacementResult>>;

MainWindow::MainWindow(const PresetLibrary& presets, LanguageManager& languages, QWidget* parent)
    : QMainWindow(parent), m_presets(presets), m_languages(languages), m_actions(std::make_unique<Actions>())
{
    setObjectName(QStringLiteral("mainWindow"));
    m_scenarioBar = new ScenarioBar(this);
    m_scenarioBar->setPresets(presets);
    connect(m_scenarioBar, &ScenarioBar::requestChanged, this, &MainWindow::userChangedRequest);

    // Centre: the strip of wafers and the heatmap of the selected one.
    auto* centre = new QWidget(this);
    auto* layout = new QHBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_strip = new views::DeviceStrip(centre);
    m_stripArea = new QScrollArea(centre);
    m_stripArea->setWidget(m_strip);
    m_stripArea->setWidgetResizable(false);
    m_stripArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stripArea->setFrameShape(QFrame::NoFrame);
    m_stripArea->setFixedWidth(m_strip->sizeHint().width() + 14);
    m_meshView = new views::MeshView(centre);
    layout->addWidget(m_stripArea);
    layout->addWidget(m_meshView, 1);
    setCentralWidget(centre);
    connect(m_strip, &views::DeviceStrip::deviceSelected, this, &MainWindow::userSetDevice);
    connect(m_meshView, &views::MeshView::coreClicked, this, &MainWindow::onCoreClicked);
    connect(m_meshView, &views::MeshView::coreHovered, this, &MainWindow::onCoreHovered);
    connect(m_meshView, &views::MeshView::viewChangedByUser, this, &MainWindow::userChangedView);

    m_inspector = new InspectorDock(this);
    addDockWidget(Qt::RightDockWidgetArea, m_inspector);
    resizeDocks({m_inspector}, {340}, Qt::Horizontal);
    m_defects = new DefectsDock(m_meshView, this);
    tabifyDockWidget(m_inspector, m_defects);
    m_inspector->raise();
    connect(m_defects, &DefectsDock::defectsLayerRequested, this, [this] { userSetLayer(MeshLayer::Defects); });
    // The live session: chat dock, race (beside the inspector), Live Wafer dock (shown once a model is placed).
    m_chat = new ChatController(this);
    addDockWidget(Qt::RightDockWidgetArea, m_chat->pane());
    tabifyDockWidget(m_inspector, m_chat->racePane());
    m_inspector->raise();
    addDockWidget(Qt::LeftDockWidgetArea, m_chat->waferDock());
    m_chat->waferDock()->hide();
    m_dataflow = new DataflowDock(m_meshView, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_dataflow);
    m_dataflow->hide(); // shown with the Dataflow layer
    resizeDocks({m_dataflow}, {300}, Qt::Vertical);

    m_hoverLabel = new QLabel(this);
    m_zoomLabel = new QLabel(this);
    m_devicesLabel = new QLabel(this);
    m_sramLabel = new QLabel(this);
    statusBar()->addWidget(m_hoverLabel, 1);
    statusBar()->addPermanentWidget(m_zoomLabel);
    statusBar()->addPermanentWidget(m_devicesLabel);
    statusBar()->addPermanentWidget(m_sramLabel);
    connect(m_meshView, &views::MeshView::zoomChanged, this, [this](double scale) {
        if (m_result)
            m_zoomLabel->setText(tr("Zoom: %1 px per core").arg(QLocale().toString(scale, 'g', 3)));
    });

    createActions();
    retranslate();
    resize(1600, 1000);
}

MainWindow::~MainWindow() = default;

PlacementRequest MainWindow::defaultRequest()
{
    PlacementRequest r;
    r.modelId = QStringLiteral("qwen3-32b");
    r.hardwareId = QStringLiteral("wse3");
    r.precision = Precision::Bf16;
    r.contextTokens = 8192;
    return r;
}

void MainWindow::createActions()
{
    Actions& a = *m_actions;
    a.scenarioToolBar = addToolBar(QString());
    a.scenarioToolBar->setObjectName(QStringLiteral("scenarioToolBar"));
    a.scenarioToolBar->setMovable(false);
    a.scenarioToolBar->addWidget(m_scenarioBar);
    addToolBarBreak();
    a.viewToolBar = addToolBar(QString());
    a.viewToolBar->setObjectName(QStringLiteral("viewToolBar"));
    a.viewToolBar->setMovable(false);
    a.viewToolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);

    // File menu (open, save, export, record, quit): app/scenario's controller, fed with this window's scenario.
    m_files = new FileMenuController(this);
    m_files->setScenarioAccess([this] { return m_scenario; }, [this](const Scenario& s) { applyScenario(s); });
    m_files->buildFileMenu();
    m_files->addImageExport(tr("Heatmap"), [this]() -> QWidget* { return m_meshView; });
    m_files->addScenarioDataExports(m_presets);
    m_files->setFrameSource(WidgetFrameSource::make(m_meshView));
    connect(m_files, &FileMenuController::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });

    a.zoomIn = new QAction(this);
    a.zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(a.zoomIn, &QAction::triggered, m_meshView, &views::MeshView::zoomIn);
    connect(a.zoomIn, &QAction::triggered, this, &MainWindow::userChangedView);
    a.zoomOut = new QAction(this);
    a.zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(a.zoomOut, &QAction::triggered, m_meshView, &views::MeshView::zoomOut);
    connect(a.zoomOut, &QAction::triggered, this, &MainWindow::userChangedView);
    a.fit = new QAction(this);
    a.fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(a.fit, &QAction::triggered, m_meshView, &views::MeshView::fitToWindow);
    connect(a.fit, &QAction::triggered, this, &MainWindow::userChangedView);
    a.previousWafer = new QAction(this);
    a.previousWafer->setShortcut(QKeySequence(Qt::Key_PageUp));
    connect(a.previousWafer, &QAction::triggered, this, [this] { userSetDevice(m_meshView->device() - 1); });
    a.nextWafer = new QAction(this);
    a.nextWafer->setShortcut(QKeySequence(Qt::Key_PageDown));
    connect(a.nextWafer, &QAction::triggered, this, [this] { userSetDevice(m_meshView->device() + 1); });

    a.layerGroup = new QActionGroup(this);
    auto addLayer = [this, &a](QAction*& action, MeshLayer layer, int key) {
        action = new QAction(this);
        action->setCheckable(true);
        action->setData(static_cast<int>(layer));
        action->setShortcut(QKeySequence(Qt::CTRL | key));
        a.layerGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, layer] { userSetLayer(layer); });
    };
    addLayer(a.sram, MeshLayer::SramOccupancy, Qt::Key_1);
    addLayer(a.placement, MeshLayer::WeightPlacement, Qt::Key_2);
    addLayer(a.kv, MeshLayer::KvCache, Qt::Key_3);
    a.sram->setChecked(true);

    a.inspector = m_inspector->toggleViewAction();
    a.inspector->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    a.about = new QAction(this);
    connect(a.about, &QAction::triggered, this, [this] { AboutDialog(this).exec(); });

    a.view = menuBar()->addMenu(QString());
    a.view->addAction(a.zoomIn);
    a.view->addAction(a.zoomOut);
    a.view->addAction(a.fit);
    a.view->addSeparator();
    a.layers = a.view->addMenu(QString());
    a.layers->addActions(a.layerGroup->actions());
    a.view->addAction(a.previousWafer);
    a.view->addAction(a.nextWafer);
    a.view->addSeparator();
    a.view->addAction(a.inspector);
    a.view->addAction(m_defects->toggleViewAction());
    // GPU/Groq/wafer comparison and token race docks (hidden); the race follows the live chat.
    auto* compare = attachComparison(this, m_presets, a.view);
    connect(m_chat->runController(), &RunController::snapshotReady, compare, &ComparisonController::followSession);
    a.language = a.view->addMenu(QString());
    a.languageGroup = new QActionGroup(this);
    for (const QString& code : LanguageManager::availableLanguages()) {
        auto* action = a.language->addAction(LanguageManager::nativeName(code));
        action->setCheckable(true);
        action->setChecked(code == m_languages.language());
        action->setData(code);
        a.languageGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] { m_languages.setLanguage(code); });
    }
    connect(&m_languages, &LanguageManager::languageChanged, this, [this](const QString& code) {
        for (QAction* action : m_actions->languageGroup->actions())
            action->setChecked(action->data().toString() == code);
    });
    a.help = menuBar()->addMenu(QString());
    menuBar()->insertMenu(a.help->menuAction(), m_chat->modelMenu());
    a.help->addAction(a.about);

    a.viewToolBar->addActions(a.layerGroup->actions());
    a.viewToolBar->addSeparator();
    a.viewToolBar->addAction(a.zoomOut);
    a.viewToolBar->addAction(a.fit);
    a.viewToolBar->addAction(a.zoomIn);
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::retranslate()
{
    Actions& a = *m_actions;
    a.scenarioToolBar->setWindowTitle(tr("Scenario"));
    a.viewToolBar->setWindowTitle(tr("View"));
    a.view->setTitle(tr("&View"));
    a.layers->setTitle(tr("&Layer"));
    a.language->setTitle(tr("L&anguage"));
    a.help->setTitle(tr("&Help"));
    a.zoomIn->setText(tr("Zoom &In"));
    a.zoomIn->setToolTip(tr("Zoom in around the centre (Ctrl++, or the mouse wheel around the cursor)"));
    a.zoomOut->setText(tr("Zoom &Out"));
    a.zoomOut->setToolTip(tr("Zoom out (Ctrl+-)"));
    a.fit->setText(tr("&Fit to Window"));
    a.fit->setToolTip(tr("Show the whole wafer (Ctrl+0, or double-click the heatmap)"));
    a.previousWafer->setText(tr("&Previous Wafer"));
    a.nextWafer->setText(tr("&Next Wafer"));
    a.sram->setText(views::meshLayerName(MeshLayer::SramOccupancy));
    a.sram->setToolTip(views::meshLayerDescription(MeshLayer::SramOccupancy) + QStringLiteral(" (Ctrl+1)"));
    a.placement->setText(views::meshLayerName(MeshLayer::WeightPlacement));
    a.placement->setToolTip(views::meshLayerDescription(MeshLayer::WeightPlacement) + QStringLiteral(" (Ctrl+2)"));
    a.kv->setText(views::meshLayerName(MeshLayer::KvCache));
    a.kv->setToolTip(views::meshLayerDescription(MeshLayer::KvCache) + QStringLiteral(" (Ctrl+3)"));
    a.inspector->setText(tr("&Inspector"));
    a.about->setText(tr("&About WaferScope"));
    m_stripArea->setToolTip(tr("All wafers of the placement. Click one to show it (Page Up / Page Down)."));
    m_meshView->setToolTip(QString());
    if (m_error.isEmpty() && !m_result)
        m_meshView->setEmptyText(tr("Computing the placement…"));
    else if (!m_error.isEmpty())
        showError(m_error);
    updateStatus();
}

namespace {

const char* layerId(MeshLayer layer)
{
    switch (layer) {
    case MeshLayer::SramOccupancy: return "sram";
    case MeshLayer::WeightPlacement: return "placement";
    case MeshLayer::KvCache: return "kv";
    case MeshLayer::Dataflow: return "dataflow";
    case MeshLayer::Defects: return "defects";
    }
    return "sram";
}

MeshLayer layerFromId(const QString& id)
{
    for (MeshLayer layer : {MeshLayer::SramOccupancy, MeshLayer::WeightPlacement, MeshLayer::KvCache,
                            MeshLayer::Dataflow, MeshLayer::Defects})
        if (id == QLatin1String(layerId(layer)))
            return layer;
    return MeshLayer::SramOccupancy;
}

} // namespace

void MainWindow::applyScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    m_chat->setWaferScenario(m_scenario);
    PlacementRequest request = defaultRequest();
    if (!scenario.modelPreset.isEmpty())
        request.modelId = scenario.modelPreset;
    request.hardwareId = scenario.hardwarePreset;
    if (const auto precision = parsePrecision(scenario.precision.toStdString()))
        request.precision = *precision;
    request.contextTokens = scenario.contextTokens;
    setLayer(layerFromId(scenario.layer));
    m_defects->setScenarioDefects(scenario.defectRate, scenario.defectSeed, scenario.deadCores);
    m_pendingDevice = scenario.viewDevice;
    m_pendingView = scenario.zoom != 1.0 || !scenario.center.isNull();
    const auto model = m_presets.model(request.modelId);
    const auto hardware = m_presets.hardware(request.hardwareId);
    if (scenario.modelPreset.isEmpty() && !scenario.modelFile.isEmpty()) {
        ++m_requestId; // drops any placement still running
        showError(tr("the heatmap needs a model preset; this scenario names only the file %1").arg(scenario.modelFile));
        return;
    }
    if (!model || !hardware) {
        ++m_requestId;
        showError(QString::fromStdString((!model ? model.error() : hardware.error()).message()));
        return;
    }
    if (hardware->kind != HardwareKind::Wafer) {
        ++m_requestId;
        showError(tr("%1 is not wafer-scale hardware; the heatmap shows wafers only")
                      .arg(QString::fromStdString(hardware->name)));
        return;
    }
    setRequest(request);
}

void MainWindow::ensurePlacement()
{
    if (m_requestId != 0)
        return;
    // Nothing opened: show the default scenario, and save what is shown.
    const PlacementRequest r = defaultRequest();
    m_scenario.modelPreset = r.modelId;
    m_scenario.modelFile.clear();
    m_scenario.hardwarePreset = r.hardwareId;
    m_scenario.precision = QString::fromLatin1(precisionId(r.precision).data());
    m_scenario.contextTokens = r.contextTokens;
    // Start on what every core holds: layers in snake order over the wafers (SRAM is a click away).
    m_scenario.layer = QString::fromLatin1(layerId(MeshLayer::WeightPlacement));
    applyScenario(m_scenario);
}

void MainWindow::userChangedRequest()
{
    const PlacementRequest r = m_scenarioBar->request();
    m_scenario.modelPreset = r.modelId;
    m_scenario.hardwarePreset = r.hardwareId;
    m_scenario.precision = QString::fromLatin1(precisionId(r.precision).data());
    m_scenario.contextTokens = r.contextTokens;
    m_chat->setWaferScenario(m_scenario);
    m_files->markModified();
    recompute();
}

void MainWindow::userSetLayer(MeshLayer layer)
{
    setLayer(layer);
    m_scenario.layer = QString::fromLatin1(layerId(layer));
    m_files->markModified();
}

void MainWindow::userSetDevice(int device)
{
    if (!m_result || !m_result->snapshot || device < 0 || device >= m_result->snapshot->deviceCount)
        return;
    setDevice(device);
    m_scenario.viewDevice = device;
    m_files->markModified();
}

void MainWindow::userChangedView()
{
    if (!m_result)
        return;
    // Scenario convention: zoom 1 with centre (0, 0) means "fitted and centred".
    const bool fitted = std::abs(m_meshView->zoomFactor() - 1.0) < 1e-9;
    m_scenario.zoom = fitted ? 1.0 : m_meshView->zoomFactor();
    m_scenario.center = fitted ? QPointF() : m_meshView->centreCore();
    m_files->markModified();
}

void MainWindow::setRequest(const PlacementRequest& request)
{
    m_scenarioBar->setRequest(request);
    recompute();
}

PlacementRequest MainWindow::request() const
{
    return m_scenarioBar->request();
}

void MainWindow::recompute()
{
    const PlacementRequest req = m_scenarioBar->request();
    const quint64 id = ++m_requestId;
    const auto hardware = m_presets.hardware(req.hardwareId);
    const auto model = m_presets.model(req.modelId);
    if (!hardware || !model) {
        const Error& e = !hardware ? hardware.error() : model.error();
        showError(QString::fromStdString(e.message()));
        emit placementFinished(false);
        return;
    }
    spdlog::info("placing {} on {} at {}, {} tokens of context", req.modelId.toStdString(),
                 req.hardwareId.toStdString(), precisionId(req.precision), req.contextTokens);
    ++m_pending;
    m_meshView->setEmptyText(tr("Computing the placement…"));
    auto* watcher = new QFutureWatcher<ResultPtr>(this);
    connect(watcher, &QFutureWatcher<ResultPtr>::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        --m_pending;
        if (id != m_requestId)
            return; // a newer request is on its way: drop this one
        const ResultPtr r = watcher->result();
        if (!r || !r->hasValue()) {
            showError(r ? QString::fromStdString(r->error().message()) : tr("the placement did not finish"));
            emit placementFinished(false);
            return;
        }
        showResult(std::make_shared<const PlacementResult>(r->value()));
        emit placementFinished(true);
    });
    watcher->setFuture(QtConcurrent::run([req, hw = *hardware, m = *model]() -> ResultPtr {
        return std::make_shared<const Expected<PlacementResult>>(computePlacement(req, hw, m));
    }));
}

void MainWindow::showResult(std::shared_ptr<const PlacementResult> result)
{
    m_result = std::move(result);
    m_error.clear();
    m_meshView->setSnapshot(m_result->snapshot);
    m_strip->setSnapshot(m_result->snapshot);
    m_strip->setCurrentDevice(m_meshView->device());
    m_strip->resize(m_strip->sizeHint());
    m_inspector->setResult(m_result);
    m_defects->setPlacement(m_result, m_pendingDevice > 0 ? m_pendingDevice : m_meshView->device());
    m_dataflow->setResult(m_result);
    if (m_pendingDevice > 0 && m_pendingDevice < m_result->snapshot->deviceCount)
        setDevice(m_pendingDevice);
    m_pendingDevice = 0;
    if (m_pendingView) {
        const auto& snap = *m_result->snapshot;
        const QPointF centre = m_scenario.center.isNull() ? QPointF(snap.meshCols / 2.0, snap.meshRows / 2.0)
                                                          : m_scenario.center;
        m_meshView->setViewState(m_scenario.zoom, centre);
        m_pendingView = false;
    }
    m_zoomLabel->setText(tr("Zoom: %1 px per core").arg(QLocale().toString(m_meshView->transform().scale, 'g', 3)));
    updateStatus();
}

void MainWindow::showError(const QString& message)
{
    m_error = message;
    m_result.reset();
    m_meshView->setSnapshot(nullptr);
    m_strip->setSnapshot(nullptr);
    m_inspector->setResult(nullptr);
    m_dataflow->setResult(nullptr);
    m_meshView->setEmptyText(tr("No placement for this choice:\n%1").arg(message));
    spdlog::warn("placement failed: {}", message.toStdString());
    updateStatus();
}

void MainWindow::setLayer(MeshLayer layer)
{
    m_meshView->setLayer(layer);
    m_strip->setLayer(layer);
    m_dataflow->layerChanged();
    for (QAction* action : m_actions->layerGroup->actions())
        action->setChecked(action->data().toInt() == static_cast<int>(layer));
}

void MainWindow::setDevice(int device)
{
    if (!m_result || !m_result->snapshot || device < 0 || device >= m_result->snapshot->deviceCount)
        return;
    m_meshView->setDevice(device);
    m_dataflow->layerChanged();
    m_strip->setCurrentDevice(device);
    m_inspector->clearCore();
}

void MainWindow::onCoreClicked(int device, int x, int y)
{
    m_inspector->setCore(device, x, y);
    m_inspector->show();
}

void MainWindow::onCoreHovered(int device, int x, int y)
{
    m_hoverLabel->setText(x < 0 ? QString() : tr("Wafer %1, core (%2, %3)").arg(device + 1).arg(x).arg(y));
}

void MainWindow::updateStatus()
{
    const QLocale locale;
    m_stripArea->setVisible(m_result && m_result->snapshot && m_result->snapshot->deviceCount > 1);
    if (!m_result) {
        m_zoomLabel->clear();
        m_devicesLabel->setText(tr("Devices: –"));
        m_sramLabel->setText(tr("SRAM used: –"));
        setWindowTitle(tr("WaferScope"));
        return;
    }
    const PlacementResult& r = *m_result;
    const QString hardware = QString::fromStdString(r.hardware.name);
    m_devicesLabel->setText(tr("Devices: %1 × %2").arg(locale.toString(r.devices), hardware));
    m_devicesLabel->setToolTip(tr("Wafers the engine's placement needs for the model's weights and KV cache at "
                                  "%1 tokens of context.")
                                   .arg(locale.toString(qlonglong(r.request.contextTokens))));
    const double share = r.sramTotalBytes > 0 ? 100.0 * double(r.sramUsedBytes) / double(r.sramTotalBytes) : 0;
    m_sramLabel->setText(tr("SRAM used: %1 of %2 (%3%)")
                             .arg(views::formatBytes(double(r.sramUsedBytes)),
                                  views::formatBytes(double(r.sramTotalBytes)), locale.toString(share, 'f', 1)));
    m_sramLabel->setToolTip(tr("Sum over all cores of the bytes the placement puts there (weights and KV cache), "
                               "against %1 per core from the hardware preset.")
                                .arg(views::formatBytes(double(r.hardware.wafer.sramBytesPerCore))));
    setWindowTitle(tr("WaferScope — %1 on %2 × %3 (%4)")
                       .arg(QString::fromStdString(r.model.name), locale.toString(r.devices), hardware,
                            QString::fromLatin1(precisionId(r.request.precision).data()).toUpper()));
}

} // namespace ws
