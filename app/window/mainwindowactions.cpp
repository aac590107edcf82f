#include "app/window/mainwindow.h"

#include "app/stage/stage.h"

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
#include "app/window/aboutdialog.h"
#include "app/window/filemenucontroller.h"
#include "app/window/inspectordock.h"
#include "app/window/mainwindowactions.h"
#include "app/window/scenariobar.h"
#include "app/window/shortcutsdialog.h"
#include "views/mesh/meshimage.h"
#include "views/mesh/meshview.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QToolBar>

#include <utility>

namespace ws {

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
    m_files->setScenarioAccess([this] { return scenario(); }, [this](const Scenario& s) { applyScenario(s); });
    m_files->setShownScenario([this]() -> std::optional<Scenario> {
        if (!m_stage->error().isEmpty())
            return std::nullopt;
        return request(); // what the pickers place of it
    });
    m_files->buildFileMenu();
    // The heatmap exports as a composed figure (every wafer, the legend beside them), not as a screen copy.
    m_files->setFigureSource([this]() -> std::optional<FileMenuController::FigureInput> {
        const auto result = m_stage->result();
        const auto frame = m_stage->view()->frame();
        if (!result || !frame || !frame->base)
            return std::nullopt;
        views::MeshFigureOptions options =
            FigureExport::defaults(result->spec(), *frame->base, m_stage->layer(), ExportStamp().generator);
        return FileMenuController::FigureInput{frame, options};
    });
    m_files->addScenarioDataExports(m_presets);
    m_files->setFrameSource(WidgetFrameSource::make(m_stage->widget()));
    connect(m_files, &FileMenuController::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });

    a.zoomIn = new QAction(this);
    a.zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(a.zoomIn, &QAction::triggered, m_stage, &Stage::zoomIn);
    connect(a.zoomIn, &QAction::triggered, m_scenarios, &ScenarioController::noteView);
    a.zoomOut = new QAction(this);
    a.zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(a.zoomOut, &QAction::triggered, m_stage, &Stage::zoomOut);
    connect(a.zoomOut, &QAction::triggered, m_scenarios, &ScenarioController::noteView);
    a.fit = new QAction(this);
    a.fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(a.fit, &QAction::triggered, m_stage, &Stage::fitToWindow);
    connect(a.fit, &QAction::triggered, m_scenarios, &ScenarioController::noteView);
    a.previousWafer = new QAction(this);
    a.previousWafer->setShortcut(QKeySequence(Qt::Key_PageUp));
    connect(a.previousWafer, &QAction::triggered, this, [this] { userSetDevice(m_stage->device() - 1); });
    a.nextWafer = new QAction(this);
    a.nextWafer->setShortcut(QKeySequence(Qt::Key_PageDown));
    connect(a.nextWafer, &QAction::triggered, this, [this] { userSetDevice(m_stage->device() + 1); });

    a.layerGroup = new QActionGroup(this);
    for (size_t i = 0; i < allMeshLayers().size(); ++i) {
        const MeshLayer layer = allMeshLayers()[i];
        QAction* action = a.layerActions[i] = new QAction(this);
        action->setObjectName(QStringLiteral("layer_%1Action").arg(QLatin1String(meshLayerId(layer))));
        action->setCheckable(true);
        action->setData(static_cast<int>(layer));
        action->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_1 + int(i))));
        a.layerGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, layer] { userSetLayer(layer); });
    }
    a.layerActions[0]->setChecked(true);

    a.inspector = m_inspector->toggleViewAction();
    a.inspector->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    a.resetLayout = new QAction(this);
    a.resetLayout->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    connect(a.resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
    a.about = new QAction(this);
    connect(a.about, &QAction::triggered, this, [this] { AboutDialog(this).exec(); });
    a.shortcuts = new QAction(this);
    a.shortcuts->setShortcut(QKeySequence::HelpContents);
    connect(a.shortcuts, &QAction::triggered, this, [this] { ShortcutsDialog(this, this).exec(); });

    a.view = menuBar()->addMenu(QString());
    m_layoutEdit->installMenus(a.view->menuAction()); // Edit (undo, redo) before View
    a.view->addAction(a.zoomIn);
    a.view->addAction(a.zoomOut);
    a.view->addAction(a.fit);
    a.view->addSeparator();
    a.layers = a.view->addMenu(QString());
    a.layers->addActions(a.layerGroup->actions());
    a.playback = a.view->addMenu(QString());
    a.playback->addActions(m_dataflow->playbackActions());
    a.view->addAction(a.previousWafer);
    a.view->addAction(a.nextWafer);
    a.view->addSeparator();
    a.view->addAction(a.inspector);
    a.view->addAction(m_defects->toggleViewAction());
    a.view->addAction(m_layoutEdit->dock()->toggleViewAction());
    // GPU/Groq/wafer comparison and token race docks (hidden); the race follows the live chat.
    auto* compare = attachComparison(this, m_presets, a.view);
    a.view->addAction(a.resetLayout);
    connect(m_chat->runController(), &RunController::snapshotReady, compare, &ComparisonController::followSession);
    connect(m_chat, &ChatController::modelChanged, compare, [this, compare] {
        const auto& info = m_chat->runController()->modelInfo();
        compare->setLoadedModel(info ? QString::fromStdString(info->filePath) : QString(),
                                info ? QString::fromStdString(info->displayName) : QString());
    });
    // The comparison shows the scenario on stage (its model, workload and wafer) each time one is placed.
    connect(m_stage, &Stage::resultChanged, compare, [this, compare](std::shared_ptr<const PlacementResult> result) {
        if (result)
            compare->followScenario(request());
    });
    // View > Present (F11): presentation mode plays a tour on these pieces (app/present/windowstage.h).
    WindowParts present{this,
                        m_stage,
                        m_dataflow,
                        m_defects,
                        compare,
                        findChild<QDockWidget*>(QStringLiteral("comparisonDock")),
                        findChild<QDockWidget*>(QStringLiteral("tokenRaceDock")),
                        [this] { return scenario(); },
                        [this](const Scenario& s) { applyScenario(s); },
                        [this](MeshLayer l) { setLayer(l); },
                        [this](int device) { setDevice(device); },
                        [this] { return isBusy(); }};
    a.view->addAction((new PresentationMode(std::move(present)))->action());
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
    a.help->addAction(a.shortcuts);
    a.help->addAction(a.about);

    a.viewToolBar->addActions(a.layerGroup->actions());
    a.viewToolBar->addSeparator();
    a.viewToolBar->addAction(a.zoomOut);
    a.viewToolBar->addAction(a.fit);
    a.viewToolBar->addAction(a.zoomIn);
    nameMenuActions();
}

// Object names of the View and Help menus and their actions, and of those that come without one (dock toggles,
// languages).
void MainWindow::nameMenuActions()
{
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        if (dock->toggleViewAction()->objectName().isEmpty())
            dock->toggleViewAction()->setObjectName(dock->objectName() + QStringLiteral("ToggleAction"));
    for (QAction* action : m_actions->languageGroup->actions())
        action->setObjectName(QStringLiteral("language_%1Action").arg(action->data().toString()));
    const Actions& a = *m_actions;
    const std::pair<QObject*, const char*> names[] = {{a.view, "viewMenu"},
                                                      {a.layers, "layerMenu"},
                                                      {a.playback, "playbackMenu"},
                                                      {a.language, "languageMenu"},
                                                      {a.help, "helpMenu"},
                                                      {a.zoomIn, "zoomInAction"},
                                                      {a.zoomOut, "zoomOutAction"},
                                                      {a.fit, "fitAction"},
                                                      {a.previousWafer, "previousWaferAction"},
                                                      {a.nextWafer, "nextWaferAction"},
                                                      {a.about, "aboutAction"},
                                                      {a.shortcuts, "shortcutsAction"},
                                                      {a.resetLayout, "resetLayoutAction"}};
    for (const auto& [object, name] : names)
        object->setObjectName(QLatin1String(name));
}

// Menus read by a screen reader: the title without its mnemonic (QAction's own accessible name is its text).
void MainWindow::updateAccessibleNames()
{
    for (QMenu* menu : findChildren<QMenu*>())
        menu->setAccessibleName(QString(menu->title()).remove(QLatin1Char('&')));
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
    for (QAction* action : a.layerActions) {
        const auto layer = static_cast<MeshLayer>(action->data().toInt());
        action->setText(views::meshLayerName(layer));
        action->setToolTip(views::meshLayerDescription(layer) +
                           QStringLiteral(" (%1)").arg(action->shortcut().toString(QKeySequence::NativeText)));
    }
    a.playback->setTitle(tr("Dataflow &Playback"));
    a.inspector->setText(tr("&Inspector"));
    a.resetLayout->setText(tr("&Reset Layout"));
    a.resetLayout->setToolTip(tr("Put every dock back where it starts and the window at its first size"));
    a.about->setText(tr("&About WaferScope"));
    a.shortcuts->setText(tr("&Keyboard Shortcuts"));
    m_stripArea->setToolTip(tr("All wafers of the placement. Click one to show it (Page Up / Page Down)."));
    m_stage->widget()->setToolTip(QString());
    if (m_stage->error().isEmpty() && !m_stage->result())
        m_stage->showBusy(tr("Computing the placement…"));
    else if (!m_stage->error().isEmpty())
        m_stage->showError(m_stage->error()); // again, in the new language
    // After every menu has its new title (the other menus' owners retranslate on the same event).
    QMetaObject::invokeMethod(
        this, [this] { updateAccessibleNames(); }, Qt::QueuedConnection);
    updateAccessibleNames();
    updateStatus();
}

} // namespace ws
