// SystemPaces: the chat's compared systems are every hardware preset of the
// library (none hard-coded), each either predicted or skipped with its reason,
// fastest first; paceOf carries a prediction's speed and time to first token.
#include "app/common/presetlibrary.h"
#include "app/session/systempaces.h"
#include "engine/predict/predictor.h"

#include <QTest>

using namespace ws;

class TestSystemPaces : public QObject
{
    Q_OBJECT
private slots:
    void everyHardwarePresetFastestFirst()
    {
        const PresetLibrary presets(QString{});
        const Expected<ModelConfig> model = presets.model(QStringLiteral("llama-3.1-8b"));
        QVERIFY(model);
        const Workload w = SystemPaces::chatWorkload(128, 256);
        QCOMPARE(w.concurrency, 1);
        QCOMPARE(w.contextTokens, int64_t(128 + 256));
        const SystemPaces paces = SystemPaces::predict(*model, presets, w);
        QCOMPARE(qsizetype(paces.systems.size()) + paces.skipped.size(), presets.hardwareIds().size());
        QVERIFY(paces.systems.size() >= 3);
        QStringList seen;
        for (size_t i = 0; i < paces.systems.size(); ++i) {
            const SystemPace& p = paces.systems[i];
            QVERIFY(p.tokensPerSecondPerUser > 0);
            if (i > 0)
                QVERIFY(paces.systems[i - 1].tokensPerSecondPerUser >= p.tokensPerSecondPerUser);
            seen << QString::fromStdString(p.id);
            // The pace is the engine's prediction for that preset, as paceOf turns it into one.
            const Expected<Prediction> direct = predict(*model, *presets.hardware(seen.last()), w);
            QVERIFY(direct);
            QCOMPARE(p.tokensPerSecondPerUser, direct->tokensPerSecondPerUser);
            QCOMPARE(p.firstTokenSeconds, direct->ttftSeconds);
        }
        for (const QString& id : presets.hardwareIds())
            QVERIFY2(seen.contains(id) || paces.skipped.join(QLatin1Char('\n')).contains(id), qPrintable(id));
    }

    void paceOfCarriesThePrediction()
    {
        Prediction p;
        p.tokensPerSecondPerUser = 123.5;
        p.ttftSeconds = 0.25;
        const SystemPace pace = SystemPaces::paceOf(p, "h100", "8 × H100");
        QCOMPARE(pace.id, std::string("h100"));
        QCOMPARE(pace.name, std::string("8 × H100"));
        QCOMPARE(pace.tokensPerSecondPerUser, 123.5);
        QCOMPARE(pace.firstTokenSeconds, 0.25);
    }

    void unknownHardwareIsSkippedWithItsReason()
    {
        const PresetLibrary presets(QString{});
        const SystemPaces paces = SystemPaces::predict(*presets.model(QStringLiteral("llama-3.1-8b")), presets,
                                                       {QStringLiteral("tpu-v9")}, SystemPaces::chatWorkload(1, 1));
        QVERIFY(paces.systems.empty());
        QCOMPARE(paces.skipped.size(), 1);
        QVERIFY(paces.skipped[0].startsWith(QStringLiteral("tpu-v9: ")));
    }
};

QTEST_GUILESS_MAIN(TestSystemPaces)
#include "tst_systempaces.moc"
