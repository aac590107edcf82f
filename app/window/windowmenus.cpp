#include "app/window/windowmenus.h"

#include "app/common/languagemanager.h"
#include "app/compare/comparecontroller.h"
#include "app/compare/comparisondocks.h"
#include "app/dataflow/dataflowdock.h"
#include "app/defects/defectsdock.h"
#include "app/explore/layoutdock.h"
#include "app/explore/layouteditcontroller.h"
#include "app/export/figureexport.h"
#include "app/present/presentationmode.h"
#include "app/record/widgetframesource.h"
#include "app/session/chatcontroller.h"
#include "app/session/runcontroller.h"
#include "app/stage/stage.h"
#include "app/window/aboutdialog.h"
#include "app/window/filemenucontroller.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindow.h"
#include "app/window/scenariobar.h"
#include "app/window/scenariocontroller.h"
#include "app/window/shortcutsdialog.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>

#include <utility>

namespace ws {

WindowMenus::WindowMenus(MainWindow& window, const PresetLibrary& presets, LanguageManager& languages, ScenarioBar* bar,
                         ScenarioController* scenarios)
    : QObject(&window), m_window(window), m_presets(presets), m_languages(languages), m_scenarios(scenarios)
{
    m_scenarioToolBar = window.addToolBar(QString());
    m_scenarioToolBar->setObjectName(QStringLiteral("scenarioToolBar"));
    m_scenarioToolBar->setMovable(false);
    m_scenarioToolBar->addWidget(bar);
    window.addToolBarBreak();
    m_viewToolBar = window.addToolBar(QString());
    m_viewToolBar->setObjectName(QStringLiteral("viewToolBar"));
    m_viewToolBar->setMovable(false);
    m_viewToolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);

    // File menu (open, save, export, record, quit): app/scenario's controller, fed with this window's scenario.
    Stage* stage = window.stage();
    m_files = new FileMenuController(&window);
    m_files->setScenarioAccess([this] { return m_window.scenario(); },
                               [this](const Scenario& s) { m_window.applyScenario(s); });
    m_files->setShownScenario([this]() -> std::optional<Scenario> {
        if (!m_window.stage()->error().isEmpty())
            return std::nullopt;
        return m_window.request(); // what the pickers place of it
    });
    m_files->buildFileMenu();
    // The heatmap exports as a composed figure (every wafer, the legend beside them), not as a screen copy.
    m_files->setFigureSource([stage]() -> std::optional<FileMenuController::FigureInput> {
        const auto result = stage->result();
        const auto frame = stage->view()->frame();
        if (!result || !frame || !frame->base)
            return std::nullopt;
        views::MeshFigureOptions options =
            FigureExport::defaults(result->spec(), *frame->base, stage->layer(), ExportStamp().generator);
        return FileMenuController::FigureInput{frame, options};
    });
    m_files->addScenarioDataExports(presets);
    m_files->setFrameSource(WidgetFrameSource::make(stage->widget()));
    connect(m_files, &FileMenuController::statusMessage, this,
            [this](const QString& message) { m_window.statusBar()->showMessage(message, 5000); });

    m_zoomIn = new QAction(this);
    m_zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(m_zoomIn, &QAction::triggered, stage, &Stage::zoomIn);
    m_zoomOut = new QAction(this);
    m_zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(m_zoomOut, &QAction::triggered, stage, &Stage::zoomOut);
    m_fit = new QAction(this);
    m_fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_fit, &QAction::triggered, stage, &Stage::fitToWindow);
    for (QAction* action : {m_zoomIn, m_zoomOut, m_fit})
        connect(action, &QAction::triggered, scenarios, &ScenarioController::noteView);
    m_previousWafer = new QAction(this);
    m_previousWafer->setShortcut(QKeySequence(Qt::Key_PageUp));
    connect(m_previousWafer, &QAction::triggered, this, [this, stage] { emit devicePicked(stage->device() - 1); });
    m_nextWafer = new QAction(this);
    m_nextWafer->setShortcut(QKeySequence(Qt::Key_PageDown));
    connect(m_nextWafer, &QAction::triggered, this, [this, stage] { emit devicePicked(stage->device() + 1); });

    m_layerGroup = new QActionGroup(this);
    for (size_t i = 0; i < allMeshLayers().size(); ++i) {
        const MeshLayer layer = allMeshLayers()[i];
        QAction* action = m_layerActions[i] = new QAction(this);
        action->setObjectName(QStringLiteral("layer_%1Action").arg(QLatin1String(meshLayerId(layer))));
        action->setCheckable(true);
        action->setData(static_cast<int>(layer));
        action->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_1 + int(i))));
        m_layerGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, layer] { emit layerPicked(layer); });
    }
    m_layerActions[0]->setChecked(true);
    connect(stage, &Stage::layerChanged, this, [this](MeshLayer layer) {
        for (QAction* action : m_layerGroup->actions())
            action->setChecked(action->data().toInt() == static_cast<int>(layer));
    });

    m_inspector = window.inspector()->toggleViewAction();
    m_inspector->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_resetLayout = new QAction(this);
    m_resetLayout->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    connect(m_resetLayout, &QAction::triggered, &window, &MainWindow::resetLayout);
    m_about = new QAction(this);
    connect(m_about, &QAction::triggered, this, [this] { AboutDialog(&m_window).exec(); });
    m_shortcuts = new QAction(this);
    m_shortcuts->setShortcut(QKeySequence::HelpContents);
    connect(m_shortcuts, &QAction::triggered, this, [this] { ShortcutsDialog(&m_window, &m_window).exec(); });

    createViewMenu();
    m_help = window.menuBar()->addMenu(QString());
    window.menuBar()->insertMenu(m_help->menuAction(), window.chat()->modelMenu());
    m_help->addAction(m_shortcuts);
    m_help->addAction(m_about);

    m_viewToolBar->addActions(m_layerGroup->actions());
    m_viewToolBar->addSeparator();
    m_viewToolBar->addAction(m_zoomOut);
    m_viewToolBar->addAction(m_fit);
    m_viewToolBar->addAction(m_zoomIn);
    nameMenuActions();
}

// View: zoom, layers, playback, wafers, the docks, the comparison, presentation mode and the language.
void WindowMenus::createViewMenu()
{
    MainWindow& window = m_window;
    m_view = window.menuBar()->addMenu(QString());
    window.layoutEdit()->installMenus(m_view->menuAction()); // Edit (undo, redo) before View
    m_view->addActions({m_zoomIn, m_zoomOut, m_fit});
    m_view->addSeparator();
    m_layers = m_view->addMenu(QString());
    m_layers->addActions(m_layerGroup->actions());
    m_playback = m_view->addMenu(QString());
    m_playback->addActions(window.dataflowDock()->playbackActions());
    m_view->addActions({m_previousWafer, m_nextWafer});
    m_view->addSeparator();
    m_view->addActions(
        {m_inspector, window.defectsDock()->toggleViewAction(), window.layoutEdit()->dock()->toggleViewAction()});
    // GPU/Groq/wafer comparison and token race docks (hidden); the race follows the live chat.
    auto* compare = attachComparison(&window, m_presets, m_view);
    m_view->addAction(m_resetLayout);
    ChatController* chat = window.chat();
    connect(chat->runController(), &RunController::snapshotReady, compare, &ComparisonController::followSession);
    connect(chat, &ChatController::modelChanged, compare, [chat, compare] {
        const auto& info = chat->runController()->modelInfo();
        compare->setLoadedModel(info ? QString::fromStdString(info->filePath) : QString(),
                                info ? QString::fromStdString(info->displayName) : QString());
    });
    // The comparison shows the scenario on stage (its model, workload and wafer) each time one is placed.
    connect(window.stage(), &Stage::resultChanged, compare,
            [this, compare](std::shared_ptr<const PlacementResult> result) {
                if (result)
                    compare->followScenario(m_window.request());
            });
    // View > Present (F11): presentation mode plays a tour on these pieces (app/present/windowstage.h).
    MainWindow* w = &window;
    WindowParts present{w,
                        window.stage(),
                        window.dataflowDock(),
                        window.defectsDock(),
                        compare,
                        window.findChild<QDockWidget*>(QStringLiteral("comparisonDock")),
                        window.findChild<QDockWidget*>(QStringLiteral("tokenRaceDock")),
                        [w] { return w->scenario(); },
                        [w](const Scenario& s) { w->applyScenario(s); },
                        [w](MeshLayer l) { w->setLayer(l); },
                        [w](int device) { w->setDevice(device); },
                        [w] { return w->isBusy(); }};
    m_view->addAction((new PresentationMode(std::move(present)))->action());
    m_language = m_view->addMenu(QString());
    m_languageGroup = new QActionGroup(this);
    for (const QString& code : LanguageManager::availableLanguages()) {
        auto* action = m_language->addAction(LanguageManager::nativeName(code));
        action->setCheckable(true);
        action->setChecked(code == m_languages.language());
        action->setData(code);
        m_languageGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] { m_languages.setLanguage(code); });
    }
    connect(&m_languages, &LanguageManager::languageChanged, this, [this](const QString& code) {
        for (QAction* action : m_languageGroup->actions())
            action->setChecked(action->data().toString() == code);
    });
}

void WindowMenus::addModeMenu(QMenu* menu)
{
    m_view->insertMenu(m_view->actions().constFirst(), menu);
    m_view->insertSeparator(m_view->actions().at(1));
}

// Object names of the View and Help menus and their actions, and of those that come without one (dock toggles,
// languages).
void WindowMenus::nameMenuActions()
{
    for (QDockWidget* dock : m_window.findChildren<QDockWidget*>())
        if (dock->toggleViewAction()->objectName().isEmpty())
            dock->toggleViewAction()->setObjectName(dock->objectName() + QStringLiteral("ToggleAction"));
    for (QAction* action : m_languageGroup->actions())
        action->setObjectName(QStringLiteral("language_%1Action").arg(action->data().toString()));
    const std::pair<QObject*, const char*> names[] = {{m_view, "viewMenu"},
                                                      {m_layers, "layerMenu"},
                                                      {m_playback, "playbackMenu"},
                                                      {m_language, "languageMenu"},
                                                      {m_help, "helpMenu"},
                                                      {m_zoomIn, "zoomInAction"},
                                                      {m_zoomOut, "zoomOutAction"},
                                                      {m_fit, "fitAction"},
                                                      {m_previousWafer, "previousWaferAction"},
                                                      {m_nextWafer, "nextWaferAction"},
                                                      {m_about, "aboutAction"},
                                                      {m_shortcuts, "shortcutsAction"},
                                                      {m_resetLayout, "resetLayoutAction"}};
    for (const auto& [object, name] : names)
        object->setObjectName(QLatin1String(name));
}

// Menus read by a screen reader: the title without its mnemonic (QAction's own accessible name is its text).
void WindowMenus::updateAccessibleNames()
{
    for (QMenu* menu : m_window.findChildren<QMenu*>())
        menu->setAccessibleName(QString(menu->title()).remove(QLatin1Char('&')));
}

void WindowMenus::retranslate()
{
    m_scenarioToolBar->setWindowTitle(tr("Scenario"));
    m_viewToolBar->setWindowTitle(tr("View"));
    m_view->setTitle(tr("&View"));
    m_layers->setTitle(tr("&Layer"));
    m_language->setTitle(tr("L&anguage"));
    m_help->setTitle(tr("&Help"));
    m_zoomIn->setText(tr("Zoom &In"));
    m_zoomIn->setToolTip(tr("Zoom in around the centre (Ctrl++, or the mouse wheel around the cursor)"));
    m_zoomOut->setText(tr("Zoom &Out"));
    m_zoomOut->setToolTip(tr("Zoom out (Ctrl+-)"));
    m_fit->setText(tr("&Fit to Window"));
    m_fit->setToolTip(tr("Show the whole wafer (Ctrl+0, or double-click the heatmap)"));
    m_previousWafer->setText(tr("&Previous Wafer"));
    m_nextWafer->setText(tr("&Next Wafer"));
    for (QAction* action : m_layerActions) {
        const auto layer = static_cast<MeshLayer>(action->data().toInt());
        action->setText(views::meshLayerName(layer));
        action->setToolTip(views::meshLayerDescription(layer) +
                           QStringLiteral(" (%1)").arg(action->shortcut().toString(QKeySequence::NativeText)));
    }
    m_playback->setTitle(tr("Dataflow &Playback"));
    m_inspector->setText(tr("&Inspector"));
    m_resetLayout->setText(tr("&Reset Layout"));
    m_resetLayout->setToolTip(tr("Put every dock back where it starts and the window at its first size"));
    m_about->setText(tr("&About WaferScope"));
    m_shortcuts->setText(tr("&Keyboard Shortcuts"));
    // After every menu has its new title (the other menus' owners retranslate on the same event).
    QMetaObject::invokeMethod(
        this, [this] { updateAccessibleNames(); }, Qt::QueuedConnection);
    updateAccessibleNames();
}

} // namespace ws
