// waferscope-cli generate, run as a process: text in, text out, against the llama.cpp references.
#include "tests/common/clirunner.h"
#include "tests/common/testmodels.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <utility>

namespace {

using Run = wstest::CliRun;

Run runCli(const QStringList& args)
{
    return wstest::runCli(QStringList{QStringLiteral("generate")} + args);
}

QList<int> intList(const QJsonArray& a)
{
    QList<int> out;
    for (const auto& v : a)
        out.append(v.toInt());
    return out;
}

QJsonObject loadReference(const QString& relative)
{
    QFile f(wstest::testModelPath(relative));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestCliGenerate : public QObject
{
    Q_OBJECT
private slots:
    void matchesLlamaCppText_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QList<int>>("promptIds");
        QTest::addColumn<QList<int>>("ids");
        QTest::addColumn<QString>("text");
        const QJsonObject f32 = loadReference(QStringLiteral("stories260K/stories260K.reference.json"));
        for (const auto& v : f32.value(QStringLiteral("results")).toArray()) {
            const QJsonObject r = v.toObject();
            for (const char* file : {"stories260K.gguf", "stories260K.bin"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(file, r[QStringLiteral("prompt")].toString())))
                    << QStringLiteral("stories260K/") + QLatin1String(file) << r[QStringLiteral("prompt")].toString()
                    << intList(r[QStringLiteral("prompt_ids_with_bos")].toArray())
                    << intList(r[QStringLiteral("generated_ids")].toArray())
                    << r[QStringLiteral("generated_text")].toString();
        }
        const QJsonObject rnd = loadReference(QStringLiteral("random/random.reference.json"));
        for (const auto& m : rnd.value(QStringLiteral("models")).toArray()) {
            const QString file = m.toObject()[QStringLiteral("model")].toString();
            for (const auto& v : m.toObject()[QStringLiteral("results")].toArray()) {
                const QJsonObject r = v.toObject();
                QString name = file + " " + r[QStringLiteral("prompt")].toString();
                name.replace(QLatin1Char('\n'), QLatin1String("\\n"));
                QTest::newRow(qPrintable(name))
                    << QStringLiteral("random/") + file << r[QStringLiteral("prompt")].toString()
                    << intList(r[QStringLiteral("prompt_ids")].toArray())
                    << intList(r[QStringLiteral("generated_ids")].toArray())
                    << r[QStringLiteral("generated_text")].toString();
            }
        }
        // A reference that is missing gives a row that names it, for WS_REQUIRE_MODEL_FILE.
        for (const auto& [reference, name] : {std::pair{&f32, "stories260K/stories260K.reference.json"},
                                              std::pair{&rnd, "random/random.reference.json"}})
            if (reference->isEmpty())
                QTest::newRow(name) << QString::fromLatin1(name) << QString() << QList<int>{} << QList<int>{}
                                    << QString();
    }
    void matchesLlamaCppText()
    {
        QFETCH(QString, model);
        QFETCH(QString, prompt);
        QFETCH(QList<int>, promptIds);
        QFETCH(QList<int>, ids);
        QFETCH(QString, text);
        const QString path = wstest::testModelPath(model);
        WS_REQUIRE_MODEL_FILE(path);
        const Run r = runCli({QStringLiteral("--model"), path, QStringLiteral("--prompt"), prompt,
                              QStringLiteral("--tokens"), QString::number(ids.size()), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject out = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(intList(out[QStringLiteral("prompt_tokens")].toArray()), promptIds);
        QCOMPARE(intList(out[QStringLiteral("tokens")].toArray()), ids);
        QCOMPARE(out[QStringLiteral("text")].toString(), text);
        QVERIFY(out[QStringLiteral("tokens_per_second")].toDouble() > 0.0);
    }

    void plainOutputStreamsText()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.bin");
        const Run r = runCli({QStringLiteral("--model"), QString::fromStdString(path), QStringLiteral("--prompt"),
                              QStringLiteral("Once upon a time"), QStringLiteral("--tokens"), QStringLiteral("11")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.out), QStringLiteral(", there was a little girl named Lily.\n"));
    }

    void samplingIsSeeded()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        const QStringList args{QStringLiteral("--model"), QString::fromStdString(path), QStringLiteral("--temperature"),
                               QStringLiteral("0.9"),     QStringLiteral("--top-k"),    QStringLiteral("40"),
                               QStringLiteral("--top-p"), QStringLiteral("0.9"),        QStringLiteral("--seed"),
                               QStringLiteral("7"),       QStringLiteral("--tokens"),   QStringLiteral("30"),
                               QStringLiteral("--json")};
        const Run a = runCli(args), b = runCli(args);
        QCOMPARE(a.exitCode, 0);
        const QJsonObject ja = QJsonDocument::fromJson(a.out).object(), jb = QJsonDocument::fromJson(b.out).object();
        QCOMPARE(ja[QStringLiteral("tokens")], jb[QStringLiteral("tokens")]);
        QCOMPARE(intList(ja[QStringLiteral("prompt_tokens")].toArray()), QList<int>{1}); // empty prompt: BOS only
    }

    void badInputExitsWithOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString stories = wstest::testModelPath(QStringLiteral("stories260K/stories260K.gguf"));
        QTest::newRow("no model") << QStringList{} << "--model";
        QTest::newRow("missing file") << QStringList{"--model", "/nonexistent/m.gguf"} << "/nonexistent/m.gguf";
        QTest::newRow("negative tokens") << QStringList{"--model", stories, "--tokens", "-1"} << "--tokens";
        QTest::newRow("temperature not a number")
            << QStringList{"--model", stories, "--temperature", "hot"} << "--temperature";
        QTest::newRow("top-p above 1") << QStringList{"--model", stories, "--top-p", "1.5"} << "--top-p";
        QTest::newRow("unknown option") << QStringList{"--model", stories, "--bogus"} << "bogus";
    }
    void badInputExitsWithOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
    }

    void corruptModelIsRejected_data()
    {
        QTest::addColumn<int>("keepBytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty file") << 0 << "the file is empty";
        QTest::newRow("three bytes") << 3 << "not a GGUF file";
        QTest::newRow("truncated header") << 20 << "truncated";
        QTest::newRow("truncated tensor data") << 1000000 << "runs past the end of the file";
    }
    void corruptModelIsRejected()
    {
        QFETCH(int, keepBytes);
        QFETCH(QString, expected);
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        QFile src(QString::fromStdString(path));
        QVERIFY(src.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.gguf"));
        QFile dst(bad);
        QVERIFY(dst.open(QIODevice::WriteOnly));
        dst.write(src.read(keepBytes));
        dst.close();
        const Run r = runCli({QStringLiteral("--model"), bad});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(bad.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains(expected.toUtf8()) || r.err.contains("ends inside"), r.err.constData());
    }

    void llama2cWithoutTokenizerFails()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.bin");
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("model.bin"));
        QVERIFY(QFile::copy(QString::fromStdString(path), copy));
        const Run r = runCli({QStringLiteral("--model"), copy});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("tokenizer"), r.err.constData());
        const Run ok = runCli({QStringLiteral("--model"), copy, QStringLiteral("--tokenizer"),
                               wstest::testModelPath(QStringLiteral("stories260K/tok512.bin")),
                               QStringLiteral("--tokens"), QStringLiteral("3"), QStringLiteral("--json")});
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliGenerate)
#include "tst_cli_generate.moc"
