#include "app/compare/comparecontroller.h"

#include "app/common/presetlibrary.h"
#include "app/compare/calibrationdialog.h"
#include "app/compare/comparefigures.h"
#include "app/compare/compareinputs.h"
#include "app/export/chartexport.h"
#include "app/session/systempaces.h"
#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/measuredpoints.h"
#include "engine/predict/gpupredictor.h"
#include "engine/predict/predictionutil.h"
#include "engine/predict/predictor.h"
#include "engine/session/tokenpacer.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/tokenrace.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QWidget>

namespace ws {

ComparisonController::ComparisonController(const PresetLibrary& presets, views::ComparisonPanel* panel,
                                           views::TokenRace* race, QObject* parent)
    : QObject(parent), m_presets(presets), m_systems(defaultSystems()), m_settings(defaultSettings())
{
    setViews(panel, race);
}

void ComparisonController::setViews(views::ComparisonPanel* panel, views::TokenRace* race)
{
    if (m_panel)
        disconnect(m_panel, nullptr, this, nullptr);
    if (m_race)
        disconnect(m_race, nullptr, this, nullptr);
    m_panel = panel;
    m_race = race;
    if (m_race)
        connect(m_race, &views::TokenRace::exportRequested, this, &ComparisonController::exportInteractive);
    if (m_panel) {
        connect(m_panel, &views::ComparisonPanel::settingsChanged, this, &ComparisonController::setSettings);
        connect(m_panel, &views::ComparisonPanel::exportRequested, this, &ComparisonController::exportInteractive);
        connect(m_panel, &views::ComparisonPanel::fitProfileRequested, this, &ComparisonController::openFitDialog);
        connect(m_panel, &views::ComparisonPanel::addMeasurementsRequested, this,
                &ComparisonController::openMeasurementsFile);
        if (m_snapshot)
            m_panel->setSnapshot(m_snapshot);
    }
    updateRace();
}

void ComparisonController::setSystems(std::vector<CompareSystemChoice> systems)
{
    m_systems = std::move(systems);
    recompute();
}

void ComparisonController::setSettings(const views::ComparisonSettings& settings)
{
    m_settings = settings;
    recompute();
}

void ComparisonController::addUserProfile(const CalibrationProfile& profile)
{
    std::erase_if(m_userProfiles, [&](const CalibrationProfile& p) { return p.id == profile.id; });
    std::erase_if(m_userGpuCalibrations, [&](const auto& c) { return c->profile.id == profile.id; });
    m_userProfiles.push_back(profile);
    recompute();
}

void ComparisonController::addUserProfile(const GpuCalibration& calibration)
{
    const std::string& id = calibration.profile.id;
    std::erase_if(m_userProfiles, [&](const CalibrationProfile& p) { return p.id == id; });
    std::erase_if(m_userGpuCalibrations, [&](const auto& c) { return c->profile.id == id; });
    m_userProfiles.push_back(calibration.profile);
    m_userGpuCalibrations.push_back(std::make_shared<const GpuCalibration>(calibration));
    recompute();
}

void ComparisonController::recompute()
{
    auto snap = std::make_shared<views::ComparisonSnapshot>();
    snap->settings = m_settings;
    snap->modelIds = m_presets.modelIds();
    for (const QString& id : snap->modelIds) {
        const auto m = m_presets.model(id);
        snap->modelNames << (m ? QString::fromStdString(m->name) : id);
    }
    for (const GpuCalibration& c : shippedGpuCalibrations())
        snap->gpuProfileIds << QString::fromStdString(c.profile.id);
    std::shared_ptr<const GpuCalibration> userGpu; // the picked profile, when a user fitted it
    for (const auto& c : m_userGpuCalibrations) {
        const QString id = QString::fromStdString(c->profile.id);
        if (!snap->gpuProfileIds.contains(id))
            snap->gpuProfileIds << id;
        if (id == m_settings.gpuProfile)
            userGpu = c;
    }
    snap->reading = defaultReadingSpeed();
    snap->tokensPerCharacterSource =
        tr("Alibaba Cloud developer community, 'How are a large model's tokens counted?', "
           "https://developer.aliyun.com/ask/689758: one Qwen token is 1.5–1.8 Chinese characters "
           "[Tokens-per-Chinese-character]");
    snap->profiles = shippedProfiles();
    for (const CalibrationProfile& p : m_userProfiles) {
        snap->profiles.push_back(p);
        snap->userProfileIds << QString::fromStdString(p.id);
    }

    auto model = m_presets.resolveModel(m_settings.modelId);
    if (model && !snap->modelIds.contains(m_settings.modelId)) { // a model file: offered by its display name
        snap->modelIds << m_settings.modelId;
        snap->modelNames << QString::fromStdString(model->name);
    }
    // The chat's loaded model is offered too, shown or not (by the name the chat read from its header).
    if (!m_loadedModel.first.isEmpty() && !snap->modelIds.contains(m_loadedModel.first)) {
        snap->modelIds << m_loadedModel.first;
        snap->modelNames << m_loadedModel.second;
    }
    // Shipped measurements that fail to load are an error on every system, not charts without their points.
    const Expected<std::vector<MeasuredPoint>>& shipped = shippedMeasuredPoints();
    if (!model || !shipped) {
        snap->modelName = m_settings.modelId;
        const Error& why = !model ? model.error() : shipped.error();
        for (const CompareSystemChoice& c : m_systems)
            snap->systems.push_back(
                {c.hardwareId, c.hardwareId, c.hardwareId, c.color, false, {}, QString::fromStdString(why.message())});
    } else {
        snap->modelName = QString::fromStdString(model->name);
        snap->inputs = CompareInputs::model(*model);
        // The scenario's model at the scenario's precision (as the wafer on stage holds it); another: its own.
        const bool scenarioModel = m_scenarioPrecision && m_settings.modelId == m_scenarioModelId;
        const Workload workload =
            workloadFor(m_settings, scenarioModel ? *m_scenarioPrecision : model->nativePrecision);
        for (const CompareSystemChoice& c : m_systems) {
            views::ComparisonSystem sys;
            sys.hardwareId = c.hardwareId;
            sys.color = c.color;
            auto hw = m_presets.hardware(c.hardwareId);
            if (!hw) {
                sys.label = c.hardwareId;
                sys.error = QString::fromStdString(hw.error().message());
                snap->systems.push_back(sys);
                continue;
            }
            const double presetHourly = CompareFigures::applyHourlyCost(*hw, m_settings);
            const QString name = CompareInputs::shortName(QString::fromStdString(hw->name));
            sys.name = name;
            const Workload systemWork =
                CompareFigures::speculativeWorkload(workload, *hw, *model, m_settings, m_presets, sys);
            auto run = [&](int devices, const Workload& work) -> Expected<Prediction> {
                if (hw->kind == HardwareKind::Gpu && !m_settings.gpuProfile.isEmpty()) {
                    GpuPredictOptions o;
                    o.devices = devices;
                    o.profile = m_settings.gpuProfile.toStdString();
                    o.calibration = userGpu;
                    auto g = predictGpu(*model, *hw, work, o);
                    if (g)
                        completeCost(*g, *hw); // as predict() does
                    return g;
                }
                PredictOptions o;
                o.devices = devices;
                o.wafer.placements = &m_placements;
                // The scenario's model on its wafer: the layout on stage (as the Layout dock predicts it).
                if (scenarioModel && m_scenarioLayout && c.hardwareId == m_scenarioHardwareId)
                    o.wafer.placedLayout = &*m_scenarioLayout;
                return predict(*model, *hw, work, o);
            };
            auto p = run(c.devices, systemWork);
            // Too few devices for this model: fall back to the fewest that hold it (the label shows the count).
            if (!p && c.devices > 0 && p.error().code == ErrorCode::OutOfRange)
                p = run(0, systemWork);
            if (p && sys.speculative)
                CompareFigures::addSpeculativeEffect(sys, *p, run(p->devices, workload), systemWork);
            if (!p) {
                sys.label = name;
                sys.error = QString::fromStdString(p.error().message());
            } else {
                sys.ok = true;
                sys.prediction = *p;
                CompareFigures::addCostFigures(sys, model->id, presetHourly);
                if (!sys.apiPrices.empty())
                    sys.costAtScale = costAtScale([&, devices = p->devicesChosen ? 0 : p->devices](int users) {
                        Workload work = systemWork;
                        work.concurrency = users;
                        return run(devices, work);
                    });
                sys.label = p->devices > 1 ? tr("%1 × %2").arg(p->devices).arg(name) : name;
                const PredictionKey key{model->id, hw->id, p->devices, workload.precision, p->concurrency};
                const std::vector<MeasuredPoint>* sets[] = {&*shipped, &m_userPoints};
                for (const std::vector<MeasuredPoint>* set : sets)
                    for (MeasuredPoint& m : matchingPoints(*set, key, true))
                        sys.measured.push_back(std::move(m));
            }
            std::vector<views::ComparisonInput> hwRows = CompareInputs::hardware(*hw, sys.label);
            if (sys.ok) {
                views::ComparisonInput row = CompareInputs::profile(sys.prediction, sys.label);
                if (userGpu && sys.prediction.profile == userGpu->profile.id)
                    row.source = QString::fromStdString(userGpu->profile.source);
                hwRows.push_back(row);
            }
            snap->inputs.insert(snap->inputs.end(), hwRows.begin(), hwRows.end());
            snap->systems.push_back(sys);
        }
    }
    const auto rows = CompareInputs::workload(m_settings, snap->reading, snap->tokensPerCharacterSource);
    snap->inputs.insert(snap->inputs.end(), rows.begin(), rows.end());

    m_snapshot = snap;
    if (m_panel)
        m_panel->setSnapshot(m_snapshot);
    updateRace();
    emit snapshotReady(m_snapshot);
}

std::vector<views::RaceSystem> ComparisonController::raceSystems() const
{
    std::vector<views::RaceSystem> out;
    if (!m_snapshot)
        return out;
    for (size_t i = 0; i < m_snapshot->systems.size() && i < m_systems.size(); ++i) {
        const views::ComparisonSystem& s = m_snapshot->systems[i];
        if (!s.ok || !m_systems[i].inRace)
            continue;
        views::RaceSystem r;
        r.pace = SystemPaces::paceOf(s.prediction, s.hardwareId.toStdString(), s.label.toStdString());
        r.label = s.label;
        r.color = s.color;
        r.marks = CompareFigures::raceMarks(s);
        r.tooltip = tr("%1 for %2: %3 tokens/s per user after a %4 ms first token (engine prediction, profile %5)")
                        .arg(s.label, m_snapshot->modelName)
                        .arg(s.prediction.tokensPerSecondPerUser, 0, 'f', 1)
                        .arg(s.prediction.ttftSeconds * 1000, 0, 'f', 0)
                        .arg(QString::fromStdString(s.prediction.profile));
        out.push_back(r);
    }
    return out;
}

void ComparisonController::setRaceText(const QStringList& pieces, const QString& source)
{
    m_racePieces = pieces;
    m_raceSource = source;
    updateRace();
}

void ComparisonController::updateRace()
{
    if (!m_race || !m_snapshot)
        return;
    m_race->setRace(m_racePieces, raceSystems(),
                    tr("Text: %1. Paces: engine predictions for %2 at %3 user(s).")
                        .arg(m_raceSource, m_snapshot->modelName)
                        .arg(m_settings.workload.concurrency));
    // The race's text is English (stories260K): an English reader's pace, as the chat's slow motion takes it
    // (the comparison's Chinese reading speed is for its Chinese answer).
    m_race->setReadingSpeed(TokenPacer::readingTokensPerSecond,
                            tr("238 words a minute, adults' silent reading of English non-fiction (Brysbaert, Journal "
                               "of Memory and Language 2019, https://doi.org/10.1016/j.jml.2019.104047 "
                               "[Reading-rate]) × 4/3 tokens per word [Tokens-per-word]"));
}

void ComparisonController::followSession(std::shared_ptr<const SessionSnapshot> snapshot)
{
    if (!m_race || !snapshot)
        return;
    if (snapshot->requestId != m_liveRequest) {
        m_liveRequest = snapshot->requestId;
        setRaceText({}, tr("the live chat answer"));
        m_race->setStreaming(true);
        m_race->start();
    }

    // The pieces of this snapshot's new tokens, exactly as the chat shows them. Bytes released at the end
    // (token -1) that come in a later snapshot than their token still join it.
    QStringList pieces = racePieces(snapshot->newPieces);
    if (!snapshot->newPieces.empty() && snapshot->newPieces.front().token < 0 && !m_racePieces.isEmpty() &&
        !pieces.isEmpty()) {
        const QString rest = pieces.takeFirst();
        m_racePieces.last() += rest;
        m_race->extendLastPiece(rest);
    }
    appendRacePieces(pieces);
    m_race->showSessionTimes(*snapshot);
    if (snapshot->isFinal())
        m_race->setStreaming(false);
}

void ComparisonController::appendRacePieces(const QStringList& pieces)
{
    m_racePieces << pieces;
    if (m_race)
        m_race->appendPieces(pieces);
}

QStringList ComparisonController::racePieces(const std::vector<TokenPiece>& pieces)
{
    QStringList out;
    for (const TokenPiece& piece : pieces) {
        const QString text = QString::fromStdString(piece.text);
        if (piece.token < 0 && !out.isEmpty())
            out.last() += text; // bytes the decoder released at the end belong to the token before them
        else
            out << text;
    }
    return out;
}

bool ComparisonController::exportTo(QWidget* content, const views::ChartData& data, const QString& title,
                                    const QString& path, double scale, QString* error) const
{
    return ChartExport::write(content, data, m_snapshot.get(), title, path, scale, error);
}

void ComparisonController::exportInteractive(QWidget* content, const views::ChartData& data, const QString& title)
{
    ChartExport::askAndWrite(m_panel, content, data, m_snapshot.get(), title);
}

QString ComparisonController::addMeasurements(const QByteArray& json, const QString& name)
{
    auto points = readMeasuredPoints(json.toStdString(), MeasuredOrigin::User);
    if (!points) {
        const Error& e = points.error();
        return e.field.empty()
                   ? tr("%1: %2").arg(name, QString::fromStdString(e.text))
                   : tr("%1: %2: %3").arg(name, QString::fromStdString(e.field), QString::fromStdString(e.text));
    }
    for (MeasuredPoint& p : *points) {
        if (p.origin == MeasuredOrigin::Calibration)
            p.origin = MeasuredOrigin::User; // a user's file of a calibration kind: still the user's figures
        m_userPoints.push_back(std::move(p));
    }
    recompute();
    return {};
}

void ComparisonController::openMeasurementsFile()
{
    const QString path = QFileDialog::getOpenFileName(m_panel, tr("Add measurements"), {}, tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    QFile f(path);
    QString error;
    if (!f.open(QIODevice::ReadOnly))
        error = tr("%1: %2").arg(QFileInfo(path).fileName(), f.errorString());
    else
        error = addMeasurements(f.readAll(), QFileInfo(path).fileName());
    if (!error.isEmpty())
        QMessageBox::warning(m_panel, tr("Add measurements"),
                             tr("The file was not added.\n%1\n\nA measurement file is JSON with an id, a kind "
                                "(\"reference\" for figures to show, or a calibration kind) and rows, each with a "
                                "model and hardware preset, a context or prompt and output lengths, a speed and a "
                                "source.")
                                 .arg(error));
}

void ComparisonController::openFitDialog()
{
    CalibrationDialog dialog(m_panel);
    if (dialog.exec() != QDialog::Accepted || !dialog.profile())
        return;
    if (dialog.profile()->kind == "gpu") {
        // The same measurements give the same fit; this one carries the efficiency the predictor needs.
        auto fitted = fitGpuProfile(dialog.measurementsJson().toStdString());
        if (fitted) {
            fitted->profile = *dialog.profile();
            addUserProfile(*fitted);
            return;
        }
    }
    addUserProfile(*dialog.profile());
}

} // namespace ws
