// waferscope-cli place, run as a real process: JSON on success, exit 2 and
// exactly one line on stderr for bad input.
#include "tests/common/clirunner.h"
#include "tests/common/testmodels.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {
using Run = wstest::CliRun;

Run runCli(const QStringList& args)
{
    return wstest::runCli(args);
}
} // namespace

class TestCliPlace : public QObject
{
    Q_OBJECT
private slots:
    void goodJson_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("layers");
        QTest::newRow("llama-3.1-70b bf16")
            << QStringList{"--model", "llama-3.1-70b", "--hardware", "wse3", "--precision", "bf16"} << 4 << 80;
        QTest::newRow("llama-3.1-8b") << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3"} << 1 << 32;
        QTest::newRow("qwen3-32b default scenario")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--precision", "bf16"} << 2 << 64;
        QTest::newRow("tensor-parallel 8b")
            << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3", "--strategy", "tensor-parallel"} << 1 << 32;
    }
    void goodJson()
    {
        QFETCH(QStringList, args);
        QFETCH(int, devices);
        QFETCH(int, layers);
        const Run r = runCli(QStringList{"place"} + args + QStringList{"--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QVERIFY2(doc.isObject(), qPrintable(error.errorString()));
        const QJsonObject o = doc.object();
        QCOMPARE(o.value("devices").toInt(), devices);
        QCOMPARE(o.value("devices_chosen").toString(), QStringLiteral("automatic"));
        int sum = 0;
        for (const auto v : o.value("layers_per_device").toArray())
            sum += v.toInt();
        QCOMPARE(sum, layers);
        QCOMPARE(o.value("layers_per_device").toArray().size(), devices);
        const double used = o.value("sram_used_bytes").toDouble();
        const double total = o.value("sram_total_bytes").toDouble();
        QVERIFY(used > 0 && used <= total);
        const QJsonObject defects = o.value("defects").toObject();
        for (const char* key : {"dead_cores", "spares_used", "unrepairable_segments", "usable_cores"})
            QVERIFY2(defects.contains(QLatin1String(key)), key);
        QCOMPARE(defects.value("usable_cores").toDouble(), devices * 755.0 * 1174.0);
        QCOMPARE(defects.value("dead_cores").toDouble(), 0.0);
    }

    void importsConfigJsonAndGguf()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("config.json"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type": "qwen3", "hidden_size": 1024, "intermediate_size": 3072, "num_attention_heads": 16,
            "num_hidden_layers": 28, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
            "max_position_embeddings": 40960, "tie_word_embeddings": true})");
        f.close();
        Run r = runCli({"place", "--model", config, "--hardware", "wse3", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value("devices").toInt(), 1);

        WS_REQUIRE_MODEL(gguf, "stories260K/stories260K.gguf");
        r = runCli({"place", "--model", QString::fromStdString(gguf), "--hardware", "wse2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("layers_per_device").toArray().first().toInt(), 5);
        QCOMPARE(o.value("precision").toString(), QStringLiteral("fp32"));
    }

    void defectsShrinkTheMesh()
    {
        const Run r = runCli({"place", "--model", "llama-3.1-70b", "--hardware", "wse3", "--defect-rate", "0.002",
                              "--seed", "7", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject defects = o.value("defects").toObject();
        QVERIFY(defects.value("dead_cores").toDouble() > 0);
        QVERIFY(o.value("devices").toInt() >= 4);
        QVERIFY(defects.value("usable_cores").toDouble() <= o.value("devices").toInt() * 755.0 * 1174.0);
        // Same seed, same answer.
        const Run again = runCli({"place", "--model", "llama-3.1-70b", "--hardware", "wse3", "--defect-rate", "0.002",
                                  "--seed", "7", "--json"});
        QCOMPARE(again.out, r.out);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expectInError");
        QTest::newRow("unknown model") << QStringList{"--model", "gpt-17", "--hardware", "wse3"}
                                       << "unknown model preset";
        QTest::newRow("unknown hardware")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse9"} << "unknown hardware preset";
        QTest::newRow("negative context")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--context", "-5"} << "--context";
        QTest::newRow("nonsense context")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--context", "lots"} << "--context";
        QTest::newRow("nonsense precision")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--precision", "fp12"} << "--precision";
        QTest::newRow("missing file") << QStringList{"--model", "/nonexistent/config.json", "--hardware", "wse3"}
                                      << "no such file";
        QTest::newRow("defect rate above one half")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--defect-rate", "0.9"} << "--defect-rate";
        QTest::newRow("negative seed") << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--seed", "-1"}
                                       << "--seed";
        QTest::newRow("unknown strategy")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--strategy", "magic"} << "--strategy";
        QTest::newRow("gpu hardware") << QStringList{"--model", "qwen3-32b", "--hardware", "h100"} << "wafer";
        QTest::newRow("too big for tensor-parallel")
            << QStringList{"--model", "qwen3-32b", "--hardware", "wse3", "--strategy", "tensor-parallel"}
            << "pipelined";
        QTest::newRow("missing --model") << QStringList{"--hardware", "wse3"} << "--model";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expectInError);
        const Run r = runCli(QStringList{"place"} + args + QStringList{"--json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(expectInError), r.err.constData());
    }

    void corruptConfig_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("truncated json") << QByteArray(R"({"model_type": "llama", "hidden_size": )");
        QTest::newRow("binary garbage") << QByteArray("\x00\x01\x02garbage", 10);
        QTest::newRow("zero layers") << QByteArray(
            R"({"model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
            "num_attention_heads": 4, "num_hidden_layers": 0, "vocab_size": 10})");
    }
    void corruptConfig()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const Run r = runCli({"place", "--model", path, "--hardware", "wse3", "--json"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("config.json"), r.err.constData());
    }

    // A weights file that is empty or of neither format says so, not that a llama2.c header is too short.
    void unreadableWeightsFile_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty .gguf") << "model.gguf" << QByteArray() << "the file is empty";
        QTest::newRow("empty .bin") << "model.bin" << QByteArray() << "the file is empty";
        QTest::newRow("text .gguf") << "model.gguf" << QByteArray("not a model at all, only some words\n")
                                    << "not a GGUF file";
    }
    void unreadableWeightsFile()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const Run r = runCli({"place", "--model", path, "--hardware", "wse3", "--json"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(path.toUtf8()), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
        if (content.isEmpty())
            QVERIFY2(!r.err.contains("llama2.c header"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliPlace)
#include "tst_cli_place.moc"
