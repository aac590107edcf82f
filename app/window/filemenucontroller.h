#pragma once
// FileMenuController gives a main window its File menu: New, Open, Open
// Recent, Save, Save As, Export Figure (the heatmap composed for a slide or
// paper), Export (images of registered views, data tables),
// Record, Quit; the window title's file name and "modified" marker; asking
// before unsaved changes are lost (also when the window closes, through an
// event filter); and autosave with crash recovery. The window supplies the
// scenario through two callbacks and calls markModified() on every change, so
// adopting it takes a few lines. Without callbacks it keeps its own copy.

#include "app/export/datatable.h"
#include "app/export/exportstamp.h"
#include "app/record/recorddialog.h"
#include "app/scenario/autosave.h"
#include "app/scenario/scenario.h"
#include "views/mesh/meshfigurelayout.h"

#include <QImage>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

class QCommandLineParser;

class QMainWindow;
class QMenu;
class QMenuBar;

namespace ws {

class PresetLibrary;
class TableExportJob;

class FileMenuController : public QObject
{
    Q_OBJECT

public:
    using ScenarioGetter = std::function<Scenario()>;
    using ScenarioSetter = std::function<void(const Scenario&)>;
    // Draws frame `frameIndex` of a recording with the given options (size, chat pane).
    using FrameSource = RecordFrameSource;
    enum class Recovery
    {
        Ask,
        Accept,
        Discard
    };

    explicit FileMenuController(QMainWindow* window);
    ~FileMenuController() override;

    void setScenarioAccess(ScenarioGetter getter, ScenarioSetter setter);
    // What the window shows of an opened scenario (its pickers may not take every value); nullopt while it shows
    // an error instead. Opened files are compared with it (ScenarioFormat::adjustments). Unset: scenario().
    void setShownScenario(std::function<std::optional<Scenario>()> shown) { m_shown = std::move(shown); }
    // Adds "File" to the window's menu bar and returns it.
    QMenu* buildFileMenu();
    void addImageExport(const QString& name, std::function<QWidget*()> widget);
    // The heatmap as a figure (File > Export Figure…): the frame on show and the figure's defaults (layer, title,
    // source line); nothing when there is no placement.
    struct FigureInput
    {
        std::shared_ptr<const MeshFrame> frame;
        views::MeshFigureOptions options;
    };
    using FigureSource = std::function<std::optional<FigureInput>()>;
    void setFigureSource(FigureSource source) { m_figureSource = std::move(source); }
    void addDataExport(const QString& name, std::function<DataTable()> table);
    // A table that can fail to build (the error is shown instead of writing a file).
    using TableSource = std::function<std::optional<DataTable>(QString* error)>;
    void addDataExport(const QString& name, TableSource table);
    // SRAM map, token schedule (per-phase timings), prediction and its breakdown of the current scenario.
    void addScenarioDataExports(const PresetLibrary& presets);
    void setFrameSource(FrameSource source) { m_frameSource = std::move(source); }
    // false in tests and scripts: errors go to errorOccurred only, no dialogs.
    void setInteractive(bool interactive) { m_interactive = interactive; }

    Autosave* autosave() { return &m_autosave; }
    // Starts autosave; recovers a crashed session's scenario (asking, or as told), else opens scenarioPath if given.
    bool startSession(const QString& scenarioPath, Recovery recovery);

    // Adds --scenario FILE, --recover and --print-scenario FILE to the application's parser.
    static void addCommandLineOptions(QCommandLineParser& parser);
    // Starts the session as the options say. Returns -1 to go on into the event loop, or an exit code:
    // with --print-scenario the scenario (after any recovery) is written to FILE and the session ends.
    int startFromCommandLine(const QCommandLineParser& parser);

    Scenario scenario() const;
    // The version and this scenario, recorded in every export (PNG text, SVG comment, CSV/JSON field, video comment).
    ExportStamp exportStamp() const;
    QString filePath() const { return m_path; }
    bool isModified() const { return m_modified; }
    QStringList recentFiles() const;

public slots:
    void markModified();
    void newScenario();
    bool open();
    bool openFile(const QString& path);
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);
    // When there are unsaved changes: asks Save / Discard / Cancel. True when it is fine to go on.
    bool maybeSave();
    // The system asks the process to end (`reason`: "SIGTERM", …): no question can be asked, so unsaved
    // changes stay in the autosave, marked, for the next start to restore without asking; then the
    // application exits through its event loop (exit code 0).
    void quitForSignal(const QString& reason);
    // quitForSignal() was called: a start still under way stops (main() returns instead of entering the loop).
    bool quitRequested() const { return m_quitRequested; }
    void record();
    // The Export Figure dialog over the figure source's frame.
    void exportFigure();
    // Writes the registered data export `name` to `path` (.csv or .json) on a worker thread, with a progress
    // dialog (rows written of all) and Cancel when interactive. The job ends by itself (deleted after its end
    // signal); a cancelled export removes its partial file and says so in the status bar. Nothing when the
    // table cannot be built (the error is shown) or another data export is still running.
    TableExportJob* exportDataTo(const QString& name, const QString& path);

signals:
    void scenarioOpened(const QString& path);
    void scenarioSaved(const QString& path);
    // An opened or recovered scenario had values the window could not take as written (ScenarioFormat::adjustments).
    void scenarioAdjusted(const QStringList& adjustments);
    void errorOccurred(const QString& message);
    void statusMessage(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void apply(const Scenario& scenario);
    void setDocument(const QString& path, bool modified);
    void addRecentFile(const QString& path);
    void fillRecentMenu();
    void showError(const QString& title, const QString& message);
    // Says what the window changed of an opened scenario: status bar, scenarioAdjusted, a dialog when interactive.
    void reportAdjustments(const QString& what, const Scenario& asked);
    void exportImage(const QString& name, QWidget* widget);
    void exportData(const QString& name);

    QMainWindow* m_window;
    Autosave m_autosave;
    ScenarioGetter m_getter;
    ScenarioSetter m_setter;
    std::function<std::optional<Scenario>()> m_shown;
    Scenario m_own; // the scenario when no callbacks are set
    QString m_path;
    bool m_modified = false;
    bool m_interactive = true;
    bool m_quitRequested = false;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_exportMenu = nullptr;
    struct ImageExport
    {
        QString name;
        std::function<QWidget*()> widget;
    };
    struct DataExport
    {
        QString name;
        TableSource table;
    };
    std::vector<ImageExport> m_imageExports;
    std::vector<DataExport> m_dataExports;
    FrameSource m_frameSource;
    FigureSource m_figureSource;
    std::optional<views::MeshFigureOptions> m_figureOptions; // the last figure's page and resolution
    RecordOptions m_recordOptions;
    QPointer<TableExportJob> m_dataExport; // the data export running, if any
};

} // namespace ws
