#include "app/window/filemenucontroller.h"

#include "app/export/exporter.h"
#include "app/export/scenariotables.h"
#include "app/scenario/scenarioformat.h"

#include <QApplication>
#include <QCloseEvent>
#include <QCommandLineParser>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>

#include <cstdio>

namespace ws {

namespace {
constexpr int kMaxRecentFiles = 8;
const char* const kRecentKey = "recentScenarios";
} // namespace

FileMenuController::FileMenuController(QMainWindow* window) : QObject(window), m_window(window)
{
    m_window->installEventFilter(this);
    // Every clean exit ends the autosave session; only a crash leaves the autosave for recovery.
    connect(qApp, &QCoreApplication::aboutToQuit, this, [this] { m_autosave.endSession(); });
    connect(&m_autosave, &Autosave::autosaveFailed, this, &FileMenuController::statusMessage);
    setDocument({}, false);
}

FileMenuController::~FileMenuController() = default;

void FileMenuController::setScenarioAccess(ScenarioGetter getter, ScenarioSetter setter)
{
    m_getter = std::move(getter);
    m_setter = std::move(setter);
}

Scenario FileMenuController::scenario() const
{
    return m_getter ? m_getter() : m_own;
}

void FileMenuController::apply(const Scenario& scenario)
{
    m_own = scenario;
    if (m_setter)
        m_setter(scenario);
}

QMenu* FileMenuController::buildFileMenu()
{
    QMenu* menu = m_window->menuBar()->addMenu(tr("&File"));
    menu->setObjectName(QStringLiteral("fileMenu"));
    menu->addAction(tr("&New"), QKeySequence::New, this, &FileMenuController::newScenario)
        ->setObjectName(QStringLiteral("newAction"));
    menu->addAction(tr("&Open…"), QKeySequence::Open, this, &FileMenuController::open)
        ->setObjectName(QStringLiteral("openAction"));
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentScenariosMenu"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &FileMenuController::fillRecentMenu);
    menu->addAction(tr("&Save"), QKeySequence::Save, this, &FileMenuController::save)
        ->setObjectName(QStringLiteral("saveAction"));
    menu->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &FileMenuController::saveAs)
        ->setObjectName(QStringLiteral("saveAsAction"));
    menu->addSeparator();
    QAction* figure = menu->addAction(tr("Export &Figure…"), this, &FileMenuController::exportFigure);
    figure->setObjectName(QStringLiteral("exportFigureAction"));
    figure->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportMenu = menu->addMenu(tr("&Export"));
    m_exportMenu->setObjectName(QStringLiteral("exportMenu"));
    connect(m_exportMenu, &QMenu::aboutToShow, this, [this] {
        m_exportMenu->clear();
        for (const ImageExport& e : m_imageExports) {
            m_exportMenu->addAction(tr("%1 as PNG…").arg(e.name), this, [this, e] { exportImage(e.name, e.widget()); });
            m_exportMenu->addAction(tr("%1 as SVG…").arg(e.name), this, [this, e] {
                QWidget* widget = e.widget();
                if (!widget)
                    return;
                const QString path =
                    QFileDialog::getSaveFileName(m_window, tr("Export %1").arg(e.name), {}, tr("SVG images (*.svg)"));
                QString error;
                if (!path.isEmpty() && !Exporter::saveSvg(widget, path, e.name, &error, exportStamp()))
                    showError(tr("Export"), error);
            });
        }
        if (!m_imageExports.empty() && !m_dataExports.empty())
            m_exportMenu->addSeparator();
        for (const DataExport& e : m_dataExports)
            m_exportMenu->addAction(tr("%1 as CSV or JSON…").arg(e.name), this,
                                    [this, name = e.name] { exportData(name); });
        if (m_exportMenu->isEmpty())
            m_exportMenu->addAction(tr("Nothing to export yet"))->setEnabled(false);
    });
    menu->addAction(tr("&Record…"), this, &FileMenuController::record)->setObjectName(QStringLiteral("recordAction"));
    menu->addSeparator();
    menu->addAction(tr("&Quit"), QKeySequence::Quit, m_window, &QWidget::close)
        ->setObjectName(QStringLiteral("quitAction"));
    return menu;
}

void FileMenuController::addImageExport(const QString& name, std::function<QWidget*()> widget)
{
    m_imageExports.push_back({name, std::move(widget)});
}

void FileMenuController::addDataExport(const QString& name, std::function<DataTable()> table)
{
    m_dataExports.push_back({name, [table = std::move(table)](QString*) { return std::optional<DataTable>(table()); }});
}

void FileMenuController::addDataExport(const QString& name, TableSource table)
{
    m_dataExports.push_back({name, std::move(table)});
}

void FileMenuController::addScenarioDataExports(const PresetLibrary& presets)
{
    const PresetLibrary* library = &presets; // outlives the window (owned by main)
    addDataExport(tr("SRAM map (per core)"), TableSource([this, library](QString* error) {
                      return ScenarioTables::sramMap(scenario(), *library, error);
                  }));
    addDataExport(tr("Token schedule (per-phase timings)"), TableSource([this, library](QString* error) {
                      return ScenarioTables::schedule(scenario(), *library, error);
                  }));
    addDataExport(tr("Prediction"), TableSource([this, library](QString* error) {
                      return ScenarioTables::prediction(scenario(), *library, error);
                  }));
    addDataExport(tr("Prediction breakdown"), TableSource([this, library](QString* error) {
                      return ScenarioTables::breakdown(scenario(), *library, error);
                  }));
}

bool FileMenuController::startSession(const QString& scenarioPath, Recovery recovery)
{
    m_autosave.setProvider([this] { return scenario(); });
    if (m_autosave.beginSession() && m_autosave.hasRecovery()) {
        Recovery choice = recovery;
        const QString closedBy = m_autosave.recoveryClosedBy();
        if (choice == Recovery::Ask && !closedBy.isEmpty())
            choice = Recovery::Accept; // closed by the system with unsaved changes, not a crash: nothing to ask
        if (choice == Recovery::Ask && m_interactive) {
            const auto answer = QMessageBox::question(
                m_window, tr("Recover Scenario"),
                tr("WaferScope did not close normally last time. Recover the scenario it was showing?"),
                QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
            if (m_quitRequested)
                return false; // the question was cut short by a signal: the left-over autosave stays
            choice = answer == QMessageBox::Yes ? Recovery::Accept : Recovery::Discard;
        }
        if (choice == Recovery::Accept) {
            QString error;
            if (const auto recovered = m_autosave.takeRecovery(&error)) {
                apply(*recovered);
                reportAdjustments(tr("the autosaved scenario"), *recovered);
                setDocument({}, true); // not saved anywhere yet
                emit statusMessage(closedBy.isEmpty()
                                       ? tr("Recovered the autosaved scenario")
                                       : tr("Restored the unsaved scenario of the session %1 closed").arg(closedBy));
                m_autosave.saveNow();
                return true;
            }
            showError(tr("Recover Scenario"), error);
        } else if (choice == Recovery::Discard) {
            m_autosave.discardRecovery();
        }
        // Recovery::Ask without dialogs: the left-over autosave stays for a later, interactive start.
    }
    if (!scenarioPath.isEmpty() && !openFile(scenarioPath))
        return false;
    m_autosave.saveNow();
    return true;
}

void FileMenuController::addCommandLineOptions(QCommandLineParser& parser)
{
    parser.addOption({QStringLiteral("scenario"), tr("Open a .waferscope scenario."), tr("file")});
    parser.addOption({QStringLiteral("recover"), tr("Recover an autosaved scenario without asking.")});
    parser.addOption({QStringLiteral("print-scenario"),
                      tr("Write the scenario (after opening or recovering) to a file and exit."), tr("file")});
}

int FileMenuController::startFromCommandLine(const QCommandLineParser& parser)
{
    const bool printOnly = parser.isSet(QStringLiteral("print-scenario"));
    if (printOnly) {
        setInteractive(false);
        connect(this, &FileMenuController::errorOccurred, this,
                [](const QString& message) { std::fprintf(stderr, "waferscope: %s\n", qPrintable(message)); });
        connect(this, &FileMenuController::scenarioAdjusted, this, [](const QStringList& adjusted) {
            for (const QString& line : adjusted)
                std::fprintf(stderr, "waferscope: adjusted %s\n", qPrintable(line));
        });
    }
    const Recovery recovery = parser.isSet(QStringLiteral("recover")) ? Recovery::Accept : Recovery::Ask;
    const bool started = startSession(parser.value(QStringLiteral("scenario")), recovery);
    if (!printOnly)
        return -1;
    QString error;
    const bool written =
        started && ScenarioFormat::save(scenario(), parser.value(QStringLiteral("print-scenario")), &error);
    m_autosave.endSession();
    if (!written) {
        if (started)
            std::fprintf(stderr, "waferscope: %s\n", qPrintable(error));
        return 2;
    }
    return 0;
}

void FileMenuController::markModified()
{
    if (!m_modified)
        setDocument(m_path, true);
}

void FileMenuController::setDocument(const QString& path, bool modified)
{
    m_path = path;
    m_modified = modified;
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    m_window->setWindowTitle(tr("%1[*] — WaferScope").arg(name));
    m_window->setWindowFilePath(path);
    m_window->setWindowModified(modified);
}

void FileMenuController::newScenario()
{
    if (!maybeSave())
        return;
    apply(Scenario{});
    setDocument({}, false);
}

bool FileMenuController::open()
{
    if (!maybeSave())
        return false;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Scenario"), {},
                                                      tr("WaferScope scenarios (*.waferscope);;All files (*)"));
    return !path.isEmpty() && openFile(path);
}

bool FileMenuController::openFile(const QString& path)
{
    QString error;
    const auto loaded = ScenarioFormat::load(path, &error);
    if (!loaded) {
        showError(tr("Open Scenario"), error); // the current scenario is left as it was
        return false;
    }
    apply(*loaded);
    setDocument(QFileInfo(path).absoluteFilePath(), false);
    addRecentFile(m_path);
    m_autosave.saveNow();
    emit scenarioOpened(m_path);
    reportAdjustments(QFileInfo(path).fileName(), *loaded);
    return true;
}

bool FileMenuController::save()
{
    return m_path.isEmpty() ? saveAs() : saveTo(m_path);
}

bool FileMenuController::saveAs()
{
    QString path =
        QFileDialog::getSaveFileName(m_window, tr("Save Scenario"), m_path, tr("WaferScope scenarios (*.waferscope)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".waferscope");
    return saveTo(path);
}

bool FileMenuController::saveTo(const QString& path)
{
    QString error;
    if (!ScenarioFormat::save(scenario(), path, &error)) {
        showError(tr("Save Scenario"), error);
        return false;
    }
    setDocument(QFileInfo(path).absoluteFilePath(), false);
    addRecentFile(m_path);
    emit scenarioSaved(m_path);
    emit statusMessage(tr("Saved %1").arg(m_path));
    return true;
}

void FileMenuController::reportAdjustments(const QString& what, const Scenario& asked)
{
    const std::optional<Scenario> shown = m_shown ? m_shown() : std::optional<Scenario>(scenario());
    if (!shown) // the window says why it shows nothing
        return;
    const QStringList adjusted = ScenarioFormat::adjustments(asked, *shown);
    if (adjusted.isEmpty())
        return;
    emit scenarioAdjusted(adjusted);
    emit statusMessage(tr("%1: %n value(s) could not be used as written", nullptr, int(adjusted.size())).arg(what));
    if (m_interactive)
        QMessageBox::information(m_window, tr("Open Scenario"),
                                 tr("WaferScope could not use every value of %1 as written and shows instead:\n\n%2")
                                     .arg(what, adjusted.join(QLatin1Char('\n'))));
}

void FileMenuController::quitForSignal(const QString& reason)
{
    m_quitRequested = true;
    if (m_modified || m_autosave.hasRecovery()) // unsaved edits, or a recovery not yet decided: keep it
        m_autosave.endSessionKeeping(reason);
    else
        m_autosave.endSession(); // everything is in its file (or is the default): nothing to restore
    // exit(), not quit(): quit() would close the window, whose close asks about unsaved changes.
    QCoreApplication::exit(0);
}

bool FileMenuController::maybeSave()
{
    if (!m_modified || !m_interactive)
        return true;
    const auto answer =
        QMessageBox::warning(m_window, tr("Unsaved Changes"), tr("The scenario has been modified. Save your changes?"),
                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

QStringList FileMenuController::recentFiles() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void FileMenuController::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), files);
}

void FileMenuController::fillRecentMenu()
{
    m_recentMenu->clear();
    for (const QString& path : recentFiles())
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave())
                                openFile(path);
                        })
            ->setToolTip(path);
    if (m_recentMenu->isEmpty())
        m_recentMenu->addAction(tr("No recent scenarios"))->setEnabled(false);
}

void FileMenuController::showError(const QString& title, const QString& message)
{
    emit errorOccurred(message);
    if (m_interactive)
        QMessageBox::warning(m_window, title, message);
}

bool FileMenuController::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::Close && !maybeSave()) {
        event->ignore();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace ws
