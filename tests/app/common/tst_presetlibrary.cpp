#include "app/common/presetlibrary.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

class TestPresetLibrary : public QObject
{
    Q_OBJECT
private slots:
    void builtInsLoad()
    {
        const ws::PresetLibrary lib(QString{});
        QVERIFY2(lib.loadErrors().isEmpty(), qPrintable(lib.loadErrors().join(QLatin1Char('\n'))));
        for (const char* id : {"wse2", "wse3", "a100", "h100", "h200", "b200", "groq-lpu"})
            QVERIFY2(lib.hardwareIds().contains(QLatin1String(id)), id);
        for (const char* id : {"qwen3-32b", "llama-3.1-70b", "llama-3.1-405b", "gpt-oss-120b", "llama-4-maverick"})
            QVERIFY2(lib.modelIds().contains(QLatin1String(id)), id);
        QCOMPARE(lib.hardware(QStringLiteral("wse3"))->wafer.meshCols, 762);
    }

    void unknownIdIsAnError()
    {
        const ws::PresetLibrary lib(QString{});
        auto hw = lib.hardware(QStringLiteral("tpu-v9"));
        QVERIFY(!hw.hasValue());
        QCOMPARE(hw.error().code, ws::ErrorCode::NotFound);
        QVERIFY(!lib.resolveModel(QStringLiteral("no-such-model")).hasValue());
    }

    void userPresetOverridesAndBadFileIsReported()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("models")));
        QFile good(dir.filePath(QStringLiteral("models/qwen3-32b.json")));
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write(R"({"version": 1, "kind": "model", "id": "qwen3-32b", "name": "Mine", "architecture": "qwen3",
          "fields": {"layers": {"value": 3, "source": "me"}, "hiddenSize": {"value": 64, "source": "me"},
          "ffnSize": {"value": 128, "source": "me"}, "headCount": {"value": 4, "source": "me"},
          "kvHeadCount": {"value": 2, "source": "me"}, "vocabSize": {"value": 100, "source": "me"},
          "contextLength": {"value": 64, "source": "me"}}})");
        good.close();
        QFile bad(dir.filePath(QStringLiteral("models/broken.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{ not json");
        bad.close();
        const ws::PresetLibrary lib(dir.path());
        QCOMPARE(lib.model(QStringLiteral("qwen3-32b"))->layers, 3);
        QCOMPARE(lib.loadErrors().size(), 1);
        QVERIFY(lib.loadErrors().first().contains(QLatin1String("broken.json")));
        QVERIFY(lib.modelIds().contains(QLatin1String("llama-3.1-8b")));
    }
};

QTEST_GUILESS_MAIN(TestPresetLibrary)
#include "tst_presetlibrary.moc"
