// Tour files: every refusal is one line naming the file, the step (index and kind) and the field; the shipped
// tours load; every caption of every shipped tour is in the translation source list and translated in zh_CN.
#include "app/present/tourcaptions.h"
#include "app/present/tourformat.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

using namespace ws;

class TestTourFormat : public QObject
{
    Q_OBJECT

private slots:
    void refused_data();
    void refused();
    void accepted();
    void loadNamesThePath();
    void shippedToursLoad();
    void shippedCaptionsAreListedAndTranslated();
};

namespace {
QByteArray tourWith(const QByteArray& steps)
{
    return R"({"version": 1, "title": "T", "steps": [)" + steps + "]}";
}
} // namespace

void TestTourFormat::refused_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    const QString kinds = QStringLiteral("open, layer, zoom, play, defects, compare, race, caption, wait");
    QTest::newRow("unknown step") << tourWith(R"({"kind": "fly"})")
                                  << "bad.json: step 1: 'kind' is an unknown step 'fly' (known: " + kinds + ")";
    QTest::newRow("control characters stay on the line")
        << tourWith("{\"kind\": \"wait\", \"seconds\": 1, \"a\\nb\": 2}")
        << "bad.json: step 1 (wait): 'a\\nb' is not a field here (expected one of: kind, seconds)";
    QTest::newRow("no kind") << tourWith(R"({"text": "x"})") << "bad.json: step 1: 'kind' is missing";
    QTest::newRow("kind not a string") << tourWith(R"({"kind": 3})")
                                       << "bad.json: step 1: 'kind' must be a string, got a number";
    QTest::newRow("missing field") << tourWith(R"({"kind": "caption", "seconds": 2})")
                                   << "bad.json: step 1 (caption): 'text' is missing";
    QTest::newRow("missing field, step 2") << tourWith(R"({"kind": "wait", "seconds": 1}, {"kind": "play"})")
                                           << "bad.json: step 2 (play): 'tokens' is missing";
    QTest::newRow("wrong type") << tourWith(R"({"kind": "caption", "text": "x", "seconds": "two"})")
                                << "bad.json: step 1 (caption): 'seconds' must be a number, got a string";
    QTest::newRow("wrong type bool") << tourWith(R"({"kind": "compare", "show": "yes"})")
                                     << "bad.json: step 1 (compare): 'show' must be true or false, got a string";
    QTest::newRow("out of range") << tourWith(R"({"kind": "play", "tokens": 0})")
                                  << "bad.json: step 1 (play): 'tokens' must be from 1 to 1000, got 0";
    QTest::newRow("not whole") << tourWith(R"({"kind": "play", "tokens": 1.5})")
                               << "bad.json: step 1 (play): 'tokens' must be a whole number, got 1.5";
    QTest::newRow("pace out of range")
        << tourWith(R"({"kind": "play", "tokens": 1, "wafer_us_per_second": 0})")
        << "bad.json: step 1 (play): 'wafer_us_per_second' must be from 0.01 to 1000000, got 0";
    QTest::newRow("empty part of a token") << tourWith(R"({"kind": "play", "tokens": 1, "from": 0.5, "to": 0.5})")
                                           << "bad.json: step 1 (play): 'to' must be more than 'from' (0.5), got 0.5";
    QTest::newRow("defects out of range")
        << tourWith(R"({"kind": "defects", "dead_fraction": 0.9})")
        << "bad.json: step 1 (defects): 'dead_fraction' must be from 0 to 0.5, got 0.9";
    QTest::newRow("wait negative") << tourWith(R"({"kind": "wait", "seconds": -1})")
                                   << "bad.json: step 1 (wait): 'seconds' must be from 0.1 to 600, got -1";
    QTest::newRow("unknown key")
        << tourWith(R"({"kind": "wait", "seconds": 1, "colour": "red"})")
        << "bad.json: step 1 (wait): 'colour' is not a field here (expected one of: kind, seconds)";
    QTest::newRow("unknown layer") << tourWith(R"({"kind": "layer", "layer": "heat"})")
                                   << "bad.json: step 1 (layer): 'layer' must be sram, placement, kv, dataflow, "
                                      "defects, links or values, got 'heat'";
    QTest::newRow("engine layer on another layer")
        << tourWith(R"({"kind": "layer", "layer": "kv", "engine_layer": 0})")
        << "bad.json: step 1 (layer): 'engine_layer' needs \"layer\": \"dataflow\", \"links\" or \"values\"";
    QTest::newRow("engine layer negative")
        << tourWith(R"({"kind": "layer", "layer": "dataflow", "engine_layer": -1})")
        << "bad.json: step 1 (layer): 'engine_layer' must be from 0 to 10000, got -1";
    QTest::newRow("bad region")
        << tourWith(R"({"kind": "zoom", "region": [1, 2, 0, 4]})")
        << "bad.json: step 1 (zoom): 'region' must be [x, y, width, height] in cores (x, y >= 0; width, height >= 1)";
    QTest::newRow("region and fit") << tourWith(R"({"kind": "zoom", "fit": true, "region": [1, 2, 3, 4]})")
                                    << "bad.json: step 1 (zoom): 'region' cannot be given with 'fit'";
    QTest::newRow("open without model") << tourWith(R"({"kind": "open", "hardware": "wse3"})")
                                        << "bad.json: step 1 (open): 'model' is missing";
    QTest::newRow("open scenario and model")
        << tourWith(R"({"kind": "open", "scenario": "a.waferscope", "model": "m"})")
        << "bad.json: step 1 (open): 'model' cannot be given with 'scenario' (the file says it)";
    QTest::newRow("bad precision")
        << tourWith(R"({"kind": "open", "model": "qwen3-32b", "precision": "fp13"})")
        << "bad.json: step 1 (open): 'precision' must be a precision id such as bf16, fp8 or int4, got 'fp13'";
    QTest::newRow("unknown placeholder")
        << tourWith(R"({"kind": "caption", "text": "{speed} fast", "seconds": 1})")
        << "bad.json: step 1 (caption): 'text' has an unknown placeholder {speed} (known: " +
               TourCaptions::placeholders().join(", ") + ")";
    QTest::newRow("empty caption") << tourWith(R"({"kind": "caption", "text": "", "seconds": 1})")
                                   << "bad.json: step 1 (caption): 'text' must have 1 to 400 characters, got 0";
    QTest::newRow("step not an object") << tourWith(R"(3)") << "bad.json: step 1: must be an object, got a number";
    QTest::newRow("no steps") << QByteArray(R"({"version": 1, "title": "T", "steps": []})")
                              << "bad.json: 'steps' must be an array of 1 to 1000 steps, got an array";
    QTest::newRow("steps missing") << QByteArray(R"({"version": 1, "title": "T"})") << "bad.json: 'steps' is missing";
    QTest::newRow("no version") << QByteArray(R"({"title": "T", "steps": [{"kind": "wait", "seconds": 1}]})")
                                << "bad.json: 'version' is missing";
    QTest::newRow("newer version") << QByteArray(
                                          R"({"version": 2, "title": "T", "steps": [{"kind": "wait", "seconds": 1}]})")
                                   << "bad.json: 'version' is 2, newer than this program reads (1)";
    QTest::newRow("unknown top key")
        << QByteArray(R"({"version": 1, "title": "T", "stepz": []})")
        << "bad.json: 'stepz' is not a field here (expected one of: version, title, steps)";
    QTest::newRow("not an object") << QByteArray("[1, 2]") << "bad.json: a tour must be a JSON object";
    QTest::newRow("truncated") << QByteArray(R"({"version": 1, "title": "T", "steps": [)")
                               << "bad.json: not valid JSON at byte 39: unterminated array"; // the end of its 39 bytes
}

void TestTourFormat::refused()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    QString message;
    QVERIFY(!TourFormat::fromJson(json, QStringLiteral("bad.json"), &message));
    QCOMPARE(message, error);
    QVERIFY(!message.contains(QLatin1Char('\n')));
}

void TestTourFormat::accepted()
{
    QString error;
    const auto tour = TourFormat::fromJson(
        tourWith(R"({"kind": "open", "model": "llama-3.1-8b", "hardware": "wse2", "precision": "fp8", "context": 2048},
                    {"kind": "layer", "layer": "kv"}, {"kind": "zoom", "region": [10, 20, 30, 40]}, {"kind": "zoom", "fit": true},
                    {"kind": "play", "tokens": 3, "wafer_us_per_second": 50, "from": 0.25, "to": 0.75}, {"kind": "defects", "dead_fraction": 0.01, "seed": 9},
                    {"kind": "compare", "show": false}, {"kind": "race", "seconds": 4, "time_scale": 0.5},
                    {"kind": "caption", "text": "{model} on {hardware}", "seconds": 0}, {"kind": "wait", "seconds": 2},
                    {"kind": "open", "scenario": "x.waferscope"})"),
        QStringLiteral("ok.json"), &error);
    QVERIFY2(tour, qPrintable(error));
    QCOMPARE(tour->title, QStringLiteral("T"));
    QCOMPARE(tour->steps.size(), size_t(11));
    const auto& s = tour->steps;
    QCOMPARE(s[0].model, QStringLiteral("llama-3.1-8b"));
    QCOMPARE(s[0].hardware, QStringLiteral("wse2"));
    QCOMPARE(s[0].precision, Precision::Fp8);
    QCOMPARE(s[0].contextTokens, qint64(2048));
    QCOMPARE(s[1].layer, MeshLayer::KvCache);
    QCOMPARE(s[2].region, QRectF(10, 20, 30, 40));
    QVERIFY(s[3].region.isEmpty());
    QCOMPARE(s[4].tokens, 3);
    QCOMPARE(s[4].waferMicrosecondsPerSecond, 50.0);
    QCOMPARE(s[4].from, 0.25);
    QCOMPARE(s[4].to, 0.75);
    // Half of each of 3 tokens of 2 ms at 50 µs of wafer time per second: 60 s.
    QCOMPARE(TourFormat::stepSeconds(s[4], 0.002), 60.0);
    QCOMPARE(s[5].deadFraction, 0.01);
    QCOMPARE(s[5].seed, quint64(9));
    QCOMPARE(s[6].show, false);
    QCOMPARE(s[7].seconds, 4.0);
    QCOMPARE(s[7].timeScale, 0.5);
    QCOMPARE(TourFormat::stepSeconds(s[7], 1), 4.0);
    QCOMPARE(s[8].text, QStringLiteral("{model} on {hardware}"));
    QCOMPARE(TourFormat::stepSeconds(s[8], 1), 0.0);
    QCOMPARE(s[9].seconds, 2.0);
    QCOMPARE(s[10].scenarioPath, QStringLiteral("x.waferscope"));
    QCOMPARE(TourFormat::stepSeconds(s[10], 1), 0.0);
}

void TestTourFormat::loadNamesThePath()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(tourWith(R"({"kind": "wait"})"));
    file.close();
    QString error;
    QVERIFY(!TourFormat::load(path, &error));
    QCOMPARE(error, path + QStringLiteral(": step 1 (wait): 'seconds' is missing"));
    QVERIFY(!TourFormat::load(dir.filePath(QStringLiteral("none.json")), &error));
    QVERIFY2(error.startsWith(dir.filePath(QStringLiteral("none.json")) + QStringLiteral(": cannot read")),
             qPrintable(error));
}

void TestTourFormat::shippedToursLoad()
{
    // Every file under ":/tours" is shipped, in presentation order, and each has the three kinds of story.
    QStringList files;
    for (QDirIterator it(QStringLiteral(":/tours")); it.hasNext();)
        files << it.next();
    files.sort();
    QStringList shipped = TourFormat::shippedTours();
    QCOMPARE(shipped.size(), 3);
    shipped.sort();
    QCOMPARE(files, shipped);
    for (const QString& path : TourFormat::shippedTours()) {
        QString error;
        const auto tour = TourFormat::load(path, &error);
        QVERIFY2(tour, qPrintable(error));
        QCOMPARE(tour->steps.front().kind, TourStepKind::Open);
    }
}

void TestTourFormat::shippedCaptionsAreListedAndTranslated()
{
    QTranslator zh;
    QVERIFY(zh.load(QStringLiteral(":/i18n/waferscope_zh_CN.qm")));
    const QStringList listed = TourCaptions::sourceTexts();
    const QRegularExpression placeholder(QStringLiteral("\\{[a-z_]+\\}"));
    int captions = 0;
    for (const QString& path : TourFormat::shippedTours()) {
        QString error;
        const auto tour = TourFormat::load(path, &error);
        QVERIFY2(tour, qPrintable(error));
        QStringList texts{tour->title};
        for (const TourStep& step : tour->steps)
            if (step.kind == TourStepKind::Caption)
                texts << step.text;
        for (const QString& text : texts) {
            ++captions;
            QVERIFY2(listed.contains(text), qPrintable(path + QStringLiteral(": not in tourcaptions.cpp: ") + text));
            const QString translated = zh.translate("Tour", text.toUtf8().constData());
            QVERIFY2(!translated.isEmpty() && translated != text,
                     qPrintable(path + QStringLiteral(": no finished zh_CN translation: ") + text));
            // The translation keeps every placeholder of the source text.
            QStringList want, got;
            for (auto m = placeholder.globalMatch(text); m.hasNext();)
                want << m.next().captured();
            for (auto m = placeholder.globalMatch(translated); m.hasNext();)
                got << m.next().captured();
            want.sort();
            got.sort();
            QCOMPARE(got, want);
        }
    }
    QCOMPARE(captions, int(listed.size())); // nothing listed that no tour uses
}

QTEST_GUILESS_MAIN(TestTourFormat)
#include "tst_tourformat.moc"
