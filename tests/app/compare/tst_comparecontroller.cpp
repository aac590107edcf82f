#include "app/common/presetlibrary.h"
#include "app/compare/calibrationdialog.h"
#include "app/compare/comparecontroller.h"
#include "app/compare/comparisondocks.h"
#include "app/compare/racesample.h"
#include "engine/calibration/gpucalibration.h"
#include "engine/calibration/measurementdata.h"
#include "engine/predict/gpupredictor.h"
#include "engine/predict/predictor.h"
#include "engine/session/tokenpacer.h"
#include "tests/common/testmodels.h"
#include "views/charts/chartformat.h"
#include "views/compare/calibrationchart.h"
#include "views/compare/comparisonpanel.h"
#include "views/compare/comparisonsettingsbar.h"
#include "views/compare/racelane.h"
#include "views/compare/rangebarchart.h"
#include "views/compare/tokenrace.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QMenu>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ws;

class TestComparisonController : public QObject
{
    Q_OBJECT

    const PresetLibrary m_presets{QString{}};

    const views::ComparisonSystem* find(const views::ComparisonSnapshot& s, const QString& id)
    {
        for (const auto& sys : s.systems)
            if (sys.hardwareId == id)
                return &sys;
        return nullptr;
    }

private slots:
    void predictionsAreTheEngines_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("users");
        QTest::newRow("llama-3.1-70b, 1 user") << QStringLiteral("llama-3.1-70b") << 1;
        QTest::newRow("qwen3-32b, 8 users") << QStringLiteral("qwen3-32b") << 8;
    }

    void predictionsAreTheEngines()
    {
        QFETCH(QString, model);
        QFETCH(int, users);
        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        views::ComparisonSettings s = ComparisonController::defaultSettings();
        s.modelId = model;
        s.workload.concurrency = users;
        c.setSettings(s);
        auto snap = c.snapshot();
        QVERIFY(snap);
        QCOMPARE(panel.snapshot(), snap);
        QCOMPARE(snap->systems.size(), ComparisonController::defaultSystems().size());
        const ModelConfig m = *m_presets.model(model);
        const Workload w = ComparisonController::workloadFor(s, m.nativePrecision);
        QCOMPARE(w.concurrency, users);
        QCOMPARE(w.agentSteps, 5);
        for (const CompareSystemChoice& choice : ComparisonController::defaultSystems()) {
            const views::ComparisonSystem* sys = find(*snap, choice.hardwareId);
            QVERIFY(sys);
            QVERIFY2(sys->ok, qPrintable(sys->error));
            // The same call the controller makes, made here: the panel shows the engine's numbers.
            PredictOptions o;
            o.devices = choice.devices;
            auto direct = predict(m, *m_presets.hardware(choice.hardwareId), w, o);
            QVERIFY(direct);
            QCOMPARE(sys->prediction.tokensPerSecondPerUser, direct->tokensPerSecondPerUser);
            QCOMPARE(sys->prediction.ttftSeconds, direct->ttftSeconds);
            QCOMPARE(sys->prediction.devices, direct->devices);
            // Short names ("H100" of "NVIDIA H100 SXM5") with the device count the predictor used.
            QVERIFY(!sys->name.isEmpty());
            QVERIFY(QString::fromStdString(m_presets.hardware(choice.hardwareId)->name).contains(sys->name));
            QVERIFY(sys->label.contains(sys->name));
            QCOMPARE(sys->label.startsWith(QString::number(direct->devices) + QStringLiteral(" × ")),
                     direct->devices > 1);
        }
        // Hardware inputs carry the preset's own source notes.
        const HardwareSpec h100 = *m_presets.hardware(QStringLiteral("h100"));
        bool found = false;
        for (const views::ComparisonInput& in : snap->inputs)
            if (in.group.contains(QLatin1String("H100")) && in.name == QLatin1String("HBM bandwidth")) {
                QCOMPARE(in.source, QString::fromStdString(h100.sources.at("hbmBandwidthBytesPerS")));
                found = true;
            }
        QVERIFY(found);
    }

    void gpuProfileSwitches()
    {
        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        views::ComparisonSettings s = ComparisonController::defaultSettings();
        c.setSettings(s);
        const QString automatic =
            QString::fromStdString(find(*c.snapshot(), QStringLiteral("h100"))->prediction.profile);
        QVERIFY(c.snapshot()->gpuProfileIds.size() >= 2);
        const QStringList ids = c.snapshot()->gpuProfileIds; // a copy: each setSettings replaces the snapshot
        for (const QString& id : ids) {
            s.gpuProfile = id;
            c.setSettings(s);
            const auto* h100 = find(*c.snapshot(), QStringLiteral("h100"));
            QVERIFY2(h100->ok, qPrintable(h100->error));
            QCOMPARE(QString::fromStdString(h100->prediction.profile), id);
        }
        QVERIFY(!automatic.isEmpty());
    }

    // Seen: with the top bar on Qwen3-8B on one WSE-3 the comparison still showed llama-3.1-70b on 4 x WSE-3 at
    // 4,096 tokens. It follows the scenario on stage, and its model picker shows display names, not ids.
    void followsTheScenario()
    {
        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        c.setSettings(ComparisonController::defaultSettings());
        Scenario scenario;
        scenario.modelPreset = QStringLiteral("qwen3-8b");
        scenario.hardwarePreset = QStringLiteral("wse2");
        scenario.devices = 2;
        scenario.batch = 3;
        scenario.contextTokens = 16384;
        scenario.promptTokens = 1000;
        scenario.outputTokens = 300;
        c.followScenario(scenario);
        const views::ComparisonSettings& s = c.snapshot()->settings;
        QCOMPARE(s.modelId, scenario.modelPreset);
        QCOMPARE(s.workload.concurrency, 3);
        QCOMPARE(s.workload.contextTokens, 16384);
        QCOMPARE(s.workload.promptTokens, 1000);
        QCOMPARE(s.workload.outputTokens, 300);
        QCOMPARE(c.snapshot()->modelName, QStringLiteral("Qwen3-8B"));
        // The wafer lane is the scenario's wafer on its wafer count, predicted as predict() does.
        const auto* wafer = find(*c.snapshot(), QStringLiteral("wse2"));
        QVERIFY(wafer && wafer->ok);
        QVERIFY(!find(*c.snapshot(), QStringLiteral("wse3")));
        const auto model = m_presets.model(scenario.modelPreset);
        const auto hardware = m_presets.hardware(scenario.hardwarePreset);
        PredictOptions two;
        two.devices = 2;
        const auto direct =
            predict(*model, *hardware, ComparisonController::workloadFor(s, model->nativePrecision), two);
        QVERIFY(direct);
        QCOMPARE(wafer->prediction.tokensPerSecondPerUser, direct->tokensPerSecondPerUser);
        QCOMPARE(wafer->prediction.devices, direct->devices);
        // The picker: names shown, ids kept.
        auto* picker = panel.findChild<QComboBox*>(QStringLiteral("compareModel"));
        QVERIFY(picker);
        QCOMPARE(picker->currentText(), QStringLiteral("Qwen3-8B"));
        QCOMPARE(picker->currentData().toString(), scenario.modelPreset);
        // GPU hardware in a scenario leaves the wafer lane alone.
        scenario.hardwarePreset = QStringLiteral("h100");
        c.followScenario(scenario);
        QVERIFY(find(*c.snapshot(), QStringLiteral("wse2")));
    }

    // The scenario on stage in these tests: Qwen3-32B on WSE-3.
    static Scenario qwen32OnWse3()
    {
        Scenario scenario;
        scenario.modelPreset = QStringLiteral("qwen3-32b");
        scenario.hardwarePreset = QStringLiteral("wse3");
        return scenario;
    }

    // A model chosen in the panel holds until the scenario changes, and the docks' titles say so, naming both.
    void chosenModelSaysSo()
    {
        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        c.setSettings(ComparisonController::defaultSettings());
        const Scenario scenario = qwen32OnWse3();
        c.followScenario(scenario);
        QCOMPARE(c.shownModelText(), QStringLiteral("Qwen3-32B"));
        views::ComparisonSettings s = c.settings();
        s.modelId = QStringLiteral("llama-3.1-8b");
        c.setSettings(s);
        QCOMPARE(c.shownModelText(), QStringLiteral("Llama-3.1-8B, chosen here; the scenario shows Qwen3-32B"));
        c.followScenario(scenario); // the scenario on stage again (its placement came back)
        QCOMPARE(c.shownModelText(), QStringLiteral("Qwen3-32B"));
    }

    void offersTheLoadedModel()
    {
        // Issue 31: the comparison's model list offers the chat's loaded GGUF, by its display name.
        const QString path = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
        WS_REQUIRE_MODEL_FILE(path);
        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        c.setSettings(ComparisonController::defaultSettings());
        c.followScenario(qwen32OnWse3());
        QVERIFY(!c.snapshot()->modelIds.contains(path));
        c.setLoadedModel(path, QStringLiteral("llama (stories260K.gguf)"));
        const int i = c.snapshot()->modelIds.indexOf(path);
        QVERIFY(i >= 0);
        QCOMPARE(c.snapshot()->modelNames.at(i), QStringLiteral("llama (stories260K.gguf)"));
        QCOMPARE(c.snapshot()->modelName, QStringLiteral("Qwen3-32B")); // still the scenario's model shown
        // Chosen in the panel, it is predicted (read from its file, named as the chat names it).
        views::ComparisonSettings s = c.settings();
        s.modelId = path;
        c.setSettings(s);
        QCOMPARE(c.snapshot()->modelName, QStringLiteral("llama (stories260K.gguf)"));
        QVERIFY(c.snapshot()->systems.size() > 0 && c.snapshot()->systems.front().ok);
        c.setLoadedModel(QString(), QString());
        c.followScenario(qwen32OnWse3());
        QVERIFY(!c.snapshot()->modelIds.contains(path));
    }

    void badModelIsAnErrorNotACrash()
    {
        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        views::ComparisonSettings s = ComparisonController::defaultSettings();
        s.modelId = QStringLiteral("no-such-model");
        c.setSettings(s);
        for (const auto& sys : c.snapshot()->systems) {
            QVERIFY(!sys.ok);
            QVERIFY(!sys.error.isEmpty());
        }
        QCOMPARE(panel.speedChart()->barSeries()->count(), 0);
    }

    void exportsEveryFormat()
    {
        views::ComparisonPanel panel;
        panel.resize(1200, 800);
        ComparisonController c(m_presets, &panel);
        c.recompute();
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTemporaryDir dir;
        QWidget* chart = panel.speedChart();
        const views::ChartData data = panel.speedChart()->chartData();
        QString error;
        QVERIFY2(c.exportTo(chart, data, QStringLiteral("speed"), dir.filePath(QStringLiteral("s.png")), 2.0, &error),
                 qPrintable(error));
        const QImage png(dir.filePath(QStringLiteral("s.png")));
        QCOMPARE(png.size(), chart->size() * 2);
        QVERIFY(c.exportTo(chart, data, QStringLiteral("speed"), dir.filePath(QStringLiteral("s.svg")), 1.0, &error));
        QFile svg(dir.filePath(QStringLiteral("s.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
        QVERIFY(c.exportTo(chart, data, {}, dir.filePath(QStringLiteral("s.json")), 1.0, &error));
        QFile json(dir.filePath(QStringLiteral("s.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(o.value(QLatin1String("rows")).toArray().size(), data.rows.size());
        QCOMPARE(o.value(QLatin1String("inputs")).toObject().value(QLatin1String("model")).toString(),
                 QStringLiteral("llama-3.1-70b"));
        QVERIFY(!o.value(QLatin1String("sources")).toObject().isEmpty());
        QVERIFY(c.exportTo(chart, data, {}, dir.filePath(QStringLiteral("s.csv")), 1.0, &error));
        QFile csv(dir.filePath(QStringLiteral("s.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QByteArray header = csv.readLine();
        QVERIFY(header.startsWith("# generator: WaferScope ")); // then the scenario (the inputs), then the header
        while (header.startsWith('#'))
            header = csv.readLine();
        QVERIFY(header.startsWith("system,tokens_per_second_per_user"));
        QVERIFY(!c.exportTo(chart, data, {}, dir.filePath(QStringLiteral("s.bmp")), 1.0, &error));
        QVERIFY(error.contains(QLatin1String("bmp")));
    }

    void raceGetsThePredictedPaces()
    {
        views::ComparisonPanel panel;
        views::TokenRace race;
        ComparisonController c(m_presets, &panel, &race);
        c.setRaceText(RaceSample::pieces(), RaceSample::source());
        c.recompute();
        const auto systems = c.raceSystems();
        QVERIFY(systems.size() >= 3);
        QCOMPARE(race.laneCount(), int(systems.size()));
        QCOMPARE(race.pieces().size(), RaceSample::pieces().size());
        const auto* wse3 = find(*c.snapshot(), QStringLiteral("wse3"));
        QCOMPARE(systems[0].pace.tokensPerSecondPerUser, wse3->prediction.tokensPerSecondPerUser);
        QCOMPARE(systems[0].pace.firstTokenSeconds, wse3->prediction.ttftSeconds);
        race.advanceTo(1.0);
        QCOMPARE(race.lane(0)->revealed(),
                 TokenPacer::atPaceOf(systems[0].pace).tokensOutAt(1.0, int(RaceSample::pieces().size())));
    }

    void raceSampleEndsEveryAnswerOnAFullSentence()
    {
        // The four reference runs, each (prompt without BOS, then the greedy continuation) up to its last '.':
        // the sample shows whole sentences, never the 64th token's half word (" little b").
        const QString path = wstest::testModelPath(QStringLiteral("stories260K/stories260K.reference.json"));
        WS_REQUIRE_MODEL_FILE(path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray results = QJsonDocument::fromJson(file.readAll()).object().value("results").toArray();
        QCOMPARE(results.size(), 4);
        const QStringList runs = RaceSample::pieces().join(QString()).split(QStringLiteral("\n\n"));
        QCOMPARE(runs.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const QJsonObject r = results[i].toObject();
            QString reference;
            const QJsonArray prompt = r.value("prompt_pieces").toArray();
            for (int p = 1; p < prompt.size(); ++p) // after "<s>"
                reference += prompt[p].toString();
            reference += r.value("generated_text").toString();
            QCOMPARE(runs[i], reference.left(reference.lastIndexOf(QLatin1Char('.')) + 1));
        }
    }

    void raceFollowsALiveSession()
    {
        views::ComparisonPanel panel;
        views::TokenRace race;
        ComparisonController c(m_presets, &panel, &race);
        c.recompute();
        auto snap = std::make_shared<SessionSnapshot>();
        snap->requestId = 7;
        snap->text = "Hello";
        snap->generatedTokens = 1;
        snap->newPieces = {{11, "Hello"}};
        c.followSession(snap);
        QVERIFY(race.isStreaming());
        QCOMPARE(race.pieces(), QStringList{QStringLiteral("Hello")});
        auto more = std::make_shared<SessionSnapshot>(*snap);
        more->text = "Hello, 世界";
        more->generatedTokens = 3;
        more->newPieces = {{12, ","}, {13, " 世界"}};
        more->firstTokenSeconds = 0.01;
        more->decodeSeconds = 0.02;
        more->state = TurnState::Finished;
        c.followSession(more);
        QCOMPARE(race.pieces().size(), 3);
        QCOMPARE(race.pieces().join(QString()), QStringLiteral("Hello, 世界"));
        // The race shows the chat's own token pieces, not a split of the text.
        QCOMPARE(race.pieces(), (QStringList{QStringLiteral("Hello"), QStringLiteral(","), QStringLiteral(" 世界")}));
        QVERIFY(!race.isStreaming());
        // The race's chart has the session's times: this CPU (the snapshot names no other system).
        QCOMPARE(race.chart()->rows().size(), size_t(1));
        QVERIFY(race.chart()->rows()[0].measured);
        // A new request starts a new race.
        auto next = std::make_shared<SessionSnapshot>();
        next->requestId = 8;
        next->text = "Hi";
        next->generatedTokens = 1;
        next->newPieces = {{14, "Hi"}};
        c.followSession(next);
        QCOMPARE(race.pieces(), QStringList{QStringLiteral("Hi")});
        // Bytes the decoder releases at the end (token -1) join the token before them.
        QCOMPARE(ComparisonController::racePieces({{15, "a"}, {16, "b"}, {-1, "\xEF\xBF\xBD"}}),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b\uFFFD")}));
        // ... also when they come in the turn's last snapshot, after their token's.
        auto end = std::make_shared<SessionSnapshot>(*next);
        end->text = "Hi\xEF\xBF\xBD";
        end->newPieces = {{-1, "\xEF\xBF\xBD"}};
        end->state = TurnState::Finished;
        c.followSession(end);
        QCOMPARE(race.pieces(), QStringList{QStringLiteral("Hi\uFFFD")});
        race.pause();
    }

    void fitsAProfileFromMeasurements()
    {
        CalibrationDialog dialog;
        const std::string_view text = embeddedMeasurement("gpu-oci-serving.json");
        QVERIFY(!text.empty());
        QVERIFY(dialog.setMeasurementsJson(QString::fromUtf8(text.data(), qsizetype(text.size()))));
        QCOMPARE(dialog.measurementsTable()->rowCount(), 6);
        QVERIFY2(dialog.fit(), qPrintable(dialog.errorText()));
        const CalibrationProfile* shipped = nullptr;
        for (const CalibrationProfile& p : shippedProfiles())
            if (p.id == "gpu-oci-serving")
                shipped = &p;
        QVERIFY(shipped);
        // The table round-trips the file, so the fit equals the shipped profile's.
        QCOMPARE(dialog.profile()->rows.size(), shipped->rows.size());
        for (size_t i = 0; i < shipped->rows.size(); ++i)
            QCOMPARE(dialog.profile()->rows[i].predicted, shipped->rows[i].predicted);
        QCOMPARE(dialog.residualsTable()->rowCount(), 6);

        // The residuals show the rows the calibration chart exports for the profile once it is added.
        views::CalibrationChart chart;
        chart.setProfiles({*dialog.profile()});
        const views::ChartData data = chart.chartData();
        const QTableWidget* t = dialog.residualsTable();
        QCOMPARE(t->rowCount(), int(data.rows.size()));
        QCOMPARE(t->horizontalHeaderItem(3)->text(), QStringLiteral("Residual"));
        for (int r = 0; r < t->rowCount(); ++r) {
            const QVariantList& v = data.rows[r];
            QCOMPARE(v.at(0).toString(), QString::fromStdString(dialog.profile()->id));
            QCOMPARE(t->item(r, 0)->text(), v.at(1).toString());
            QVERIFY(t->item(r, 1)->text().startsWith(views::formatSignificant(v.at(3).toDouble()) + QLatin1Char(' ')));
            QCOMPARE(t->item(r, 2)->text(), views::formatSignificant(v.at(4).toDouble()));
            QCOMPARE(t->item(r, 3)->text(),
                     QStringLiteral("%1 %").arg(views::formatSignificant(v.at(5).toDouble() * 100, 2)));
            QCOMPARE(t->item(r, 5)->text(), v.at(7).toString());
        }
    }

    void badMeasurementsAreExplained_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("not JSON") << QStringLiteral("{ rows: [");
        QTest::newRow("unknown kind") << QStringLiteral(R"({"id":"x","kind":"tpu","rows":[]})");
        QTest::newRow("unknown model") << QStringLiteral(
            R"({"id":"x","kind":"gpu","rows":[{"label":"a","model":"nope","hardware":"h100","gpus":1,"context":100,"tokens_per_second_per_user":10}]})");
    }

    void badMeasurementsAreExplained()
    {
        QFETCH(QString, json);
        CalibrationDialog dialog;
        if (dialog.setMeasurementsJson(json))
            QVERIFY(!dialog.fit());
        QVERIFY(!dialog.errorText().isEmpty());
        QVERIFY(!dialog.profile());
    }

    void attachesToAMainWindow()
    {
        QMainWindow window;
        QMenu view;
        ComparisonController* c = attachComparison(&window, m_presets, &view);
        QCOMPARE(view.actions().size(), 2);
        QVERIFY(c);
        const auto docks = window.findChildren<QDockWidget*>();
        QCOMPARE(docks.size(), 2);
        auto* panelDock = window.findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
        auto* raceDock = window.findChild<QDockWidget*>(QStringLiteral("tokenRaceDock"));
        QVERIFY(panelDock && raceDock);
        // Hidden until asked for; the menu's action shows the dock.
        window.show();
        QVERIFY(!panelDock->isVisible());
        view.actions()[0]->trigger();
        QVERIFY(panelDock->isVisible());
        auto* panel = qobject_cast<views::ComparisonPanel*>(panelDock->widget());
        auto* race = qobject_cast<views::TokenRace*>(raceDock->widget());
        QVERIFY(panel && race);
        QCOMPARE(panel->snapshot(), c->snapshot());
        QVERIFY(race->laneCount() >= 3);
        QCOMPARE(race->pieces(), RaceSample::pieces());
        // A language switch rebuilds the views; the controller feeds the new ones at once.
        const int lanes = race->laneCount();
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(panelDock, &change);
        QTRY_VERIFY(panelDock->widget() != panel);
        auto* rebuilt = qobject_cast<views::ComparisonPanel*>(panelDock->widget());
        QVERIFY(rebuilt);
        QCOMPARE(rebuilt->snapshot(), c->snapshot());
        QCOMPARE(qobject_cast<views::TokenRace*>(raceDock->widget())->laneCount(), lanes);
    }

    void userProfileIsListed()
    {
        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        CalibrationProfile p = shippedProfiles().front();
        p.id = "my-profile";
        c.addUserProfile(p);
        QVERIFY(c.snapshot()->userProfileIds.contains(QStringLiteral("my-profile")));
        QCOMPARE(c.snapshot()->profiles.size(), shippedProfiles().size() + 1);
    }

    void userGpuProfileDrivesH100()
    {
        // A lab whose H100 stack decodes about a third as fast as the shipped profiles expect (made-up numbers).
        const char* json = R"({"kind":"gpu","id":"my-slow-h100","source":"my lab",
            "rows":[{"label":"8b","model":"llama-3.1-8b","hardware":"h100","gpus":1,"context":1024,"tokens_per_second_per_user":45},
                    {"label":"70b","model":"llama-3.1-70b","hardware":"h100","gpus":2,"context":1024,"tokens_per_second_per_user":5}]})";
        auto fitted = fitGpuProfile(json);
        QVERIFY2(fitted.hasValue(), fitted ? "" : fitted.error().message().c_str());

        views::ComparisonPanel panel;
        ComparisonController c(m_presets, &panel);
        views::ComparisonSettings s = ComparisonController::defaultSettings();
        c.setSettings(s);
        const double automatic = find(*c.snapshot(), QStringLiteral("h100"))->prediction.tokensPerSecondPerUser;
        c.addUserProfile(*fitted);
        QVERIFY(c.snapshot()->gpuProfileIds.contains(QStringLiteral("my-slow-h100")));
        QVERIFY(c.snapshot()->userProfileIds.contains(QStringLiteral("my-slow-h100")));
        // Listed, not yet chosen: the prediction is unchanged.
        QCOMPARE(find(*c.snapshot(), QStringLiteral("h100"))->prediction.tokensPerSecondPerUser, automatic);

        // The picker offers it; choosing it there drives the H100 prediction.
        QComboBox* picker = panel.settingsBar()->profileCombo();
        const int index = picker->findData(QStringLiteral("my-slow-h100"));
        QVERIFY(index > 0);
        s.gpuProfile = picker->itemData(index).toString();
        c.setSettings(s);
        const views::ComparisonSystem* h100 = find(*c.snapshot(), QStringLiteral("h100"));
        QVERIFY2(h100->ok, qPrintable(h100->error));
        QCOMPARE(QString::fromStdString(h100->prediction.profile), QStringLiteral("my-slow-h100"));

        const ModelConfig m = *m_presets.model(s.modelId);
        GpuPredictOptions o;
        o.devices = h100->prediction.devices;
        o.calibration = std::make_shared<const GpuCalibration>(*fitted);
        auto direct = predictGpu(m, *m_presets.hardware(QStringLiteral("h100")),
                                 ComparisonController::workloadFor(s, m.nativePrecision), o);
        QVERIFY2(direct.hasValue(), direct ? "" : direct.error().message().c_str());
        QCOMPARE(h100->prediction.tokensPerSecondPerUser, direct->tokensPerSecondPerUser);
        QVERIFY2(h100->prediction.tokensPerSecondPerUser < 0.6 * automatic,
                 qPrintable(QString::number(h100->prediction.tokensPerSecondPerUser)));

        // Back to automatic: the shipped numbers return.
        s.gpuProfile.clear();
        c.setSettings(s);
        QCOMPARE(find(*c.snapshot(), QStringLiteral("h100"))->prediction.tokensPerSecondPerUser, automatic);
    }
};

QTEST_MAIN(TestComparisonController)
#include "tst_comparecontroller.moc"
