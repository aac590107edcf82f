#include "app/window/mainwindow.h"

#include "app/common/presetlibrary.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/explore/layoutexplorer.h"
#include "app/session/chatcontroller.h"
#include "app/session/livewafer.h"
#include "app/session/runcontroller.h"
#include "app/window/filemenucontroller.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindowactions.h"
#include "app/window/scenariobar.h"
#include "app/window/windowlayout.h"
#include "views/mesh/devicestrip.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

#include <QAction>
#include <QActionGroup>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>

#include <spdlog/spdlog.h>

#include <cmath>

namespace ws {

MainWindow::MainWindow(const PresetLibrary& presets, LanguageManager& languages, QWidget* parent)
    : QMainWindow(parent), m_presets(presets), m_languages(languages), m_actions(std::make_unique<Actions>()),
      m_placements(this)
{
    setObjectName(QStringLiteral("mainWindow"));
    m_scenarioBar = new ScenarioBar(this);
    m_scenarioBar->setPresets(presets);
    connect(m_scenarioBar, &ScenarioBar::requestChanged, this, &MainWindow::userChangedRequest);

    createDocks();
    createActions();
    // The layout explorer (app/explore): the Explore menu, the Compare Layouts and Sweep docks, the optimiser.
    m_explorer = new LayoutExplorer(this, presets,
                                    [this] { return LayoutExplorer::withPlacedLayout(m_scenario, m_result.get()); });
    connect(this, &MainWindow::placementFinished, m_explorer, [this](bool ok) {
        if (ok)
            m_explorer->windowScenarioChanged();
    });
    retranslate();
    m_layout = new WindowLayout(this);
    m_layout->arrange(QSize(1600, 1000)); // every dock the window has by now; bounded by the screen
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

void MainWindow::applyScenario(const Scenario& scenario)
{
    endDemo(false);
    m_scenario = scenario;
    m_chat->setWaferScenario(m_scenario);
    PlacementRequest request = defaultRequest();
    if (!scenario.modelPreset.isEmpty())
        request.modelId = scenario.modelPreset;
    request.hardwareId = scenario.hardwarePreset;
    if (const auto precision = parsePrecision(scenario.precision.toStdString()))
        request.precision = *precision;
    request.contextTokens = scenario.contextTokens;
    request.draftModelId = scenario.draftModel;
    setLayer(meshLayerFromId(scenario.layer.toStdString()).value_or(MeshLayer::SramOccupancy));
    m_defects->setScenarioDefects(scenario.defectRate, scenario.defectSeed, scenario.deadCores);
    m_pendingDevice = scenario.viewDevice;
    m_pendingView = scenario.zoom != 1.0 || !scenario.center.isNull();
    const auto model = m_presets.model(request.modelId);
    const auto hardware = m_presets.hardware(request.hardwareId);
    if (scenario.modelPreset.isEmpty() && !scenario.modelFile.isEmpty()) {
        m_placements.cancel(); // drops any placement still running
        showError(tr("the heatmap needs a model preset; this scenario names only the file %1").arg(scenario.modelFile));
        return;
    }
    if (!model || !hardware) {
        m_placements.cancel();
        showError(QString::fromStdString((!model ? model.error() : hardware.error()).message()));
        return;
    }
    if (hardware->kind != HardwareKind::Wafer) {
        m_placements.cancel();
        showError(tr("%1 is not wafer-scale hardware; the heatmap shows wafers only")
                      .arg(QString::fromStdString(hardware->name)));
        return;
    }
    setRequest(request);
}

bool MainWindow::ensurePlacement()
{
    if (m_placements.latestId() != 0)
        return false;
    // Nothing opened: show the default scenario, and save what is shown.
    const PlacementRequest r = defaultRequest();
    m_scenario.modelPreset = r.modelId;
    m_scenario.modelFile.clear();
    m_scenario.hardwarePreset = r.hardwareId;
    m_scenario.precision = QString::fromLatin1(precisionId(r.precision).data());
    m_scenario.contextTokens = r.contextTokens;
    // Start on what every core holds: layers in snake order over the wafers (SRAM is a click away).
    m_scenario.layer = QString::fromLatin1(meshLayerId(MeshLayer::WeightPlacement));
    applyScenario(m_scenario);
    return true;
}

void MainWindow::userChangedRequest()
{
    const PlacementRequest r = m_scenarioBar->request();
    m_scenario.modelPreset = r.modelId;
    m_scenario.hardwarePreset = r.hardwareId;
    m_scenario.precision = QString::fromLatin1(precisionId(r.precision).data());
    m_scenario.contextTokens = r.contextTokens;
    m_scenario.draftModel = r.draftModelId;
    m_scenario.layout.reset(); // an edited layout belongs to the model and hardware it was made for
    m_chat->setWaferScenario(m_scenario);
    m_files->markModified();
    recompute();
}

void MainWindow::userSetLayer(MeshLayer layer)
{
    endDemo(layer == MeshLayer::Dataflow);
    setLayer(layer);
    if (layer == MeshLayer::Defects) { // the layer's controls live in the Defects dock
        m_defects->show();
        m_defects->raise();
    }
    m_scenario.layer = QString::fromLatin1(meshLayerId(layer));
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
    m_placements.cancel(); // whatever happens below, an older placement is no longer wanted
    if (m_chat->liveWafer()->shows() == LiveWafer::Shows::LoadedModel && m_chat->runController()->modelInfo()) {
        m_chat->setWaferScenario(m_scenario); // the chat places its model; placementReady shows it
        return;
    }
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
    m_meshView->setEmptyText(tr("Computing the placement…"));
    std::optional<ModelConfig> draft;
    if (!req.draftModelId.isEmpty())
        if (auto d = m_presets.model(req.draftModelId))
            draft = std::move(*d);
    m_placements.start([req, hw = *hardware, m = *model, draft] { return computePlacement(req, hw, m, {}, draft); },
                       [this](Expected<PlacementResult> r) {
                           if (!r) {
                               showError(QString::fromStdString(r.error().message()));
                               emit placementFinished(false);
                               return;
                           }
                           showResult(std::make_shared<const PlacementResult>(std::move(*r)));
                           emit placementFinished(true);
                       });
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
    m_chat->liveWafer()->setMainPlacement(m_result);
    playDemo();
    if (m_pendingDevice > 0 && m_pendingDevice < m_result->snapshot->deviceCount)
        setDevice(m_pendingDevice);
    m_pendingDevice = 0;
    if (m_pendingView) {
        const auto& snap = *m_result->snapshot;
        const QPointF centre =
            m_scenario.center.isNull() ? QPointF(snap.meshCols / 2.0, snap.meshRows / 2.0) : m_scenario.center;
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
    m_chat->liveWafer()->setMainPlacement(nullptr);
    m_meshView->setEmptyText(tr("No placement for this choice:\n%1").arg(message));
    spdlog::warn("placement failed: {}", message.toStdString());
    updateStatus();
}

void MainWindow::setLayer(MeshLayer layer)
{
    m_meshView->setLayer(layer);
    m_strip->setLayer(layer);
    m_dataflow->layerChanged();
    m_chat->liveWafer()->viewChanged();
    for (QAction* action : m_actions->layerGroup->actions())
        action->setChecked(action->data().toInt() == static_cast<int>(layer));
}

void MainWindow::setDevice(int device)
{
    if (!m_result || !m_result->snapshot || device < 0 || device >= m_result->snapshot->deviceCount)
        return;
    m_meshView->setDevice(device);
    m_dataflow->layerChanged();
    m_chat->liveWafer()->viewChanged();
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
