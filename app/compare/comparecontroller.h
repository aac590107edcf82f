#pragma once
// The app side of the comparison: given a model, the systems to compare and a
// workload, it runs the engine's predictors (predict, or the GPU predictor
// with a chosen calibration profile), gathers every input with its source,
// and feeds one ComparisonSnapshot to the panel and the predicted paces to
// the race. It also answers the panel's export and fit requests. The main
// window needs only: create the panel (and race), create this controller
// with them, call recompute().

#include "app/scenario/scenario.h"
#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/measuredpoints.h"
#include "engine/predict/placementcache.h"
#include "engine/session/sessionsnapshot.h"
#include "views/charts/chartdata.h"
#include "views/compare/comparisonsnapshot.h"
#include "views/compare/tokenrace.h"

#include <QColor>
#include <QObject>
#include <QStringList>

#include <memory>
#include <utility>
#include <vector>

class QWidget;

namespace ws {

class PresetLibrary;

namespace views {
class ComparisonPanel;
class TokenRace;
} // namespace views

struct CompareSystemChoice
{
    QString hardwareId;
    int devices = 0; // 0: the fewest that hold the model
    QColor color;
    bool inRace = false; // also a lane in the race
};

class ComparisonController : public QObject
{
    Q_OBJECT

public:
    ComparisonController(const PresetLibrary& presets, views::ComparisonPanel* panel, views::TokenRace* race = nullptr,
                         QObject* parent = nullptr);

    // WSE-3, 8 x H100, 8 x H200, 8 x B200 and Groq LPU (wafer, GPU and LPU counts as the predictors pick them).
    static std::vector<CompareSystemChoice> defaultSystems();
    static views::ComparisonSettings defaultSettings();
    static views::ReadingSpeed defaultReadingSpeed();
    static Workload workloadFor(const views::ComparisonSettings& settings, Precision precision);

    // The views it feeds (either may be null); the new ones show the current snapshot at once.
    void setViews(views::ComparisonPanel* panel, views::TokenRace* race);
    // The race it feeds now (a language change rebuilds it): the one way a tour reaches the race.
    views::TokenRace* race() const { return m_race; }
    void setSystems(std::vector<CompareSystemChoice> systems);
    void setSettings(const views::ComparisonSettings& settings); // recomputes
    // The scenario on stage: its model, batch, context, prompt and answer lengths, and its wafer (hardware and
    // wafer count) replace the comparison's; recomputes when that changes anything. The window calls it for
    // every scenario it places, so edits made in the panel hold until the scenario changes.
    void followScenario(const Scenario& scenario);
    // The chat's loaded model file and its display name (empty: none): offered in the model list beside the
    // presets.
    void setLoadedModel(const QString& file, const QString& name);
    // The comparison's prediction for the scenario on stage: its model on its wafer (the same numbers as the
    // Layout dock's and `predict --json`'s for the scenario's inputs); nullopt while another model is shown or
    // before the first computation.
    std::optional<Prediction> scenarioPrediction() const;
    views::ComparisonSettings settings() const { return m_settings; }
    // The model the comparison shows, by its display name; when the panel chose another than the scenario's,
    // it says so ("Llama-3.1-8B, chosen here; the scenario shows Qwen3-32B"). For the docks' titles.
    QString shownModelText() const;

    // A profile a user fitted: shown with the shipped ones. A GPU profile with its fitted efficiency also
    // joins the GPU profile picker; choosing it (settings().gpuProfile == its id) drives the GPU predictions.
    void addUserProfile(const CalibrationProfile& profile);
    void addUserProfile(const GpuCalibration& calibration);

    // Text for the race (token pieces) and where it came from; the paces come from the last snapshot.
    void setRaceText(const QStringList& pieces, const QString& source);
    std::vector<views::RaceSystem> raceSystems() const;

    std::shared_ptr<const views::ComparisonSnapshot> snapshot() const { return m_snapshot; }

    // A user's measurement file (engine/calibration/measuredpoints.h, the shipped files' format): its points join the
    // charts of matching systems and the comparison recomputes. Returns the error (file name, field, what is
    // wrong) and adds nothing when the file is not valid.
    QString addMeasurements(const QByteArray& json, const QString& name);

    // Live chat: the race follows the session's token stream (connect RunController::snapshotReady to it):
    // the snapshot's new token pieces go to the race (appendRacePieces), its times to the race's chart.
    // Not a slot, so moc never instantiates the snapshot's metatype before runcontroller.h declares it.
    void followSession(std::shared_ptr<const SessionSnapshot> snapshot);
    // The one way token pieces reach the race: one string per token, in order.
    void appendRacePieces(const QStringList& pieces);

    // One race piece per token of a snapshot's new pieces (released trailing bytes join the token before them).
    static QStringList racePieces(const std::vector<TokenPiece>& pieces);

    // Writes `content` (PNG at `scale`, SVG) or `data` (CSV, JSON) to `path`, chosen by its suffix.
    bool exportTo(QWidget* content, const views::ChartData& data, const QString& title, const QString& path,
                  double scale, QString* error) const;

public slots:
    void recompute();
    // Asks for a file (and a scale for PNG) and writes it; errors in a message box.
    void exportInteractive(QWidget* content, const ws::views::ChartData& data, const QString& title);
    void openFitDialog();
    // Asks for a measurement file and adds it (addMeasurements); errors in a message box.
    void openMeasurementsFile();

signals:
    void snapshotReady(std::shared_ptr<const ws::views::ComparisonSnapshot> snapshot);

private:
    void updateRace();

    const PresetLibrary& m_presets;
    PlacementCache m_placements; // the wafer predictions' placements, reused over recomputes
    views::ComparisonPanel* m_panel = nullptr;
    views::TokenRace* m_race = nullptr;
    std::vector<CompareSystemChoice> m_systems;
    views::ComparisonSettings m_settings;
    QString m_scenarioModelId;                    // the model of the scenario last followed (empty: none yet)
    std::optional<Precision> m_scenarioPrecision; // its weights' precision (another model shown: its native one)
    std::optional<Layout> m_scenarioLayout; // the layout on stage (an edit, the chat's sub-mesh), if not the placer's
    std::pair<QString, QString> m_loadedModel; // file, name
    QString m_scenarioHardwareId;              // the wafer it is placed on
    std::vector<CalibrationProfile> m_userProfiles;
    std::vector<std::shared_ptr<const GpuCalibration>> m_userGpuCalibrations;
    std::vector<MeasuredPoint> m_userPoints;
    std::shared_ptr<const views::ComparisonSnapshot> m_snapshot;
    quint64 m_liveRequest = 0;
    QStringList m_racePieces;
    QString m_raceSource;
};

} // namespace ws
