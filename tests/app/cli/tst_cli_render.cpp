// waferscope-cli render and record, run as a real process: render writes a
// PNG of the requested size and an SVG that Qt's SVG renderer reads; record
// writes MP4, WebM and GIF files that FFmpeg's libraries decode back to the
// requested number of frames; bad input exits 2 with one line on stderr.
#include "app/record/videoprobe.h"
#include "app/scenario/scenarioformat.h"
#include "tests/common/clirunner.h"
#include "tests/common/svgcount.h"
#include "tests/common/testmodels.h"

#include <QColor>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace ws;

namespace {

using Run = wstest::CliRun;

Run runCli(const QStringList& args)
{
    return wstest::runCli(args, wstest::headlessEnvironment());
}

} // namespace

class TestCliRender : public QObject
{
    Q_OBJECT

private slots:
    void renderPng_data()
    {
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QSize>("size");
        QTest::newRow("sram 640x400") << "sram" << QSize(640, 400);
        QTest::newRow("placement 333x221") << "placement" << QSize(333, 221);
        QTest::newRow("kv 200x500") << "kv" << QSize(200, 500);
    }
    void renderPng()
    {
        QFETCH(QString, layer);
        QFETCH(QSize, size);
        QTemporaryDir dir;
        const QString out = dir.filePath("mesh.png");
        const Run run =
            runCli({"render", "--model", "llama-3.1-8b", "--hardware", "wse3", "--layer", layer, "--width",
                    QString::number(size.width()), "--height", QString::number(size.height()), "--out", out});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QImage image;
        QVERIFY(image.load(out, "PNG"));
        QCOMPARE(image.size(), size);
        // Not blank: a heatmap has many colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 5)
            for (int x = 0; x < image.width(); x += 5)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 10);
    }

    void renderSvgFromScenario()
    {
        QTemporaryDir dir;
        Scenario scenario;
        scenario.modelPreset = "qwen3-8b";
        scenario.hardwarePreset = "wse3";
        scenario.layer = MeshLayer::WeightPlacement;
        QString error;
        const QString file = dir.filePath("s.waferscope");
        QVERIFY2(ScenarioFormat::save(scenario, file, &error), qPrintable(error));
        const QString out = dir.filePath("mesh.svg");
        const Run run = runCli({"render", "--scenario", file, "--width", "500", "--height", "300", "--out", out});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QSvgRenderer renderer(out);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 500, 300));
    }

    void renderDefectsLayer()
    {
        QTemporaryDir dir;
        Scenario scenario;
        scenario.modelPreset = "llama-3.1-8b";
        scenario.hardwarePreset = "wse3";
        scenario.defects.rate = 0.002;
        scenario.defects.seed = 7;
        scenario.defects.cores = {{0, 100, 100}};
        scenario.layer = MeshLayer::Defects;
        QString error;
        const QString file = dir.filePath("d.waferscope");
        QVERIFY2(ScenarioFormat::save(scenario, file, &error), qPrintable(error));
        const QString out = dir.filePath("defects.png");
        const Run run = runCli({"render", "--scenario", file, "--width", "400", "--height", "600", "--out", out});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QImage image;
        QVERIFY(image.load(out, "PNG"));
        QCOMPARE(image.size(), QSize(400, 600));
        // The PNG records the version and reopens as the scenario it shows.
        QVERIFY2(image.text("Software").startsWith("WaferScope "), qPrintable(image.text("Software")));
        const auto recorded = ScenarioFormat::fromJson(image.text("WaferScope-Scenario").toUtf8(), out, &error);
        QVERIFY2(recorded, qPrintable(error));
        QCOMPARE(*recorded, scenario);
    }

    void renderHonoursTheScenarioView()
    {
        // Zoomed 8x on a corner of the mesh, the image differs from the fitted one.
        QTemporaryDir dir;
        Scenario scenario;
        scenario.modelPreset = "llama-3.1-8b";
        scenario.hardwarePreset = "wse3";
        scenario.layer = MeshLayer::WeightPlacement;
        QString error;
        const QString fitted = dir.filePath("fitted.waferscope");
        QVERIFY(ScenarioFormat::save(scenario, fitted, &error));
        scenario.zoom = 8;
        scenario.center = QPointF(100, 100);
        const QString zoomed = dir.filePath("zoomed.waferscope");
        QVERIFY(ScenarioFormat::save(scenario, zoomed, &error));
        QImage images[2];
        int i = 0;
        for (const QString& file : {fitted, zoomed}) {
            const QString out = dir.filePath(QString("v%1.png").arg(i));
            const Run run = runCli({"render", "--scenario", file, "--width", "300", "--height", "300", "--out", out});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QVERIFY(images[i++].load(out));
        }
        QCOMPARE(images[0].size(), images[1].size());
        QVERIFY(images[0] != images[1]);
    }

    // --compose: the figure of a two-wafer placement (Qwen3-32B in bf16 on WSE-3) at 300 DPI. The PNG is the
    // 16:9 page at 300 DPI with both wafers; the SVG draws the cores as vector rectangles: no embedded image
    // larger than 64 x 64 pixels (at the default size and DPI, no image at all).
    void renderComposedFigure()
    {
        QTemporaryDir dir;
        // The default layer, SRAM occupancy: its tiles leave neighbouring cores a few per cent apart, the hardest
        // layer to draw as vectors (about a million squares for the two wafers).
        const QStringList scene{"render", "--compose", "--model", "qwen3-32b", "--hardware",
                                "wse3",   "--dpi",     "300",     "--json"};
        const QString png = dir.filePath("figure.png");
        const Run pngRun = runCli(scene + QStringList{"--out", png});
        QVERIFY2(pngRun.exitCode == 0, pngRun.err.constData());
        const QJsonObject pngJson = QJsonDocument::fromJson(pngRun.out).object();
        QCOMPARE(pngJson.value("devices").toInt(), 2);
        QCOMPARE(pngJson.value("wafers_drawn").toInt(), 2);
        QVERIFY(pngJson.value("pixels_per_core").toDouble() >= 1);
        QImage image;
        QVERIFY(image.load(png, "PNG"));
        QCOMPARE(image.size(), QSize(4000, 2250)); // 338.7 x 190.5 mm at 300 dpi
        QCOMPARE(image.dotsPerMeterX(), 11811);

        const QString svg = dir.filePath("figure.svg");
        const Run svgRun = runCli(scene + QStringList{"--out", svg});
        QVERIFY2(svgRun.exitCode == 0, svgRun.err.constData());
        const QJsonObject stats = QJsonDocument::fromJson(svgRun.out).object().value("svg").toObject();
        QCOMPARE(stats.value("vector_wafers").toInt(), 2);
        QCOMPARE(stats.value("raster_wafers").toInt(), 0);
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(QSvgRenderer(bytes).isValid());
        QVERIFY(bytes.contains("Qwen3-32B"));
        const wstest::SvgCount count = wstest::countSvg(bytes);
        // No embedded image larger than 64 x 64 (none at this DPI: every wafer is vectors).
        QVERIFY2(count.largestImage.width() <= 64 && count.largestImage.height() <= 64,
                 qPrintable(QStringLiteral("an image of %1 x %2")
                                .arg(count.largestImage.width())
                                .arg(count.largestImage.height())));
        const qint64 rects = count.coreRects;
        QCOMPARE(rects, qint64(stats.value("rects").toDouble()));
        QVERIFY(rects > 100);
    }

    void record_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("codec");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("fps");
        QTest::newRow("mp4") << "a.mp4"
                             << "h264" << 2 << 4;
        QTest::newRow("webm") << "a.webm"
                              << "vp9" << 3 << 3;
        QTest::newRow("gif") << "a.gif"
                             << "gif" << 2 << 5;
    }
    void record()
    {
        QFETCH(QString, file);
        QFETCH(QString, codec);
        QFETCH(int, tokens);
        QFETCH(int, fps);
        QTemporaryDir dir;
        const QString out = dir.filePath(file);
        const Run run = runCli({"record", "--model", "llama-3.1-8b", "--hardware", "wse3", "--tokens",
                                QString::number(tokens), "--fps", QString::number(fps), "--width", "320", "--height",
                                "180", "--chat", "--prompt", "Hello", "--out", out, "--json"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QString error;
        const auto probed = VideoProbe::probe(out, &error);
        QVERIFY2(probed, qPrintable(error));
        // A 2 s title card (the default --title-seconds), then one second of video per token by default.
        QCOMPARE(probed->frameCount, 2 * fps + tokens * fps);
        QCOMPARE(probed->frameSize, QSize(320, 180));
        QCOMPARE(probed->codecName, codec);
        QVERIFY(run.out.contains("\"frames\":" + QByteArray::number(2 * fps + tokens * fps)));
        QVERIFY(run.out.contains("\"title_frames\":" + QByteArray::number(2 * fps)));
        // In the window's dark theme: the title card's background (its corner) is dark.
        QVERIFY2(qGray(probed->firstFrame.pixel(4, 4)) < 64, qPrintable(QColor(probed->firstFrame.pixel(4, 4)).name()));
        // The file's comment records the version and the scenario it shows.
        QVERIFY2(probed->comment.startsWith("WaferScope "), qPrintable(probed->comment));
        const qsizetype at = probed->comment.indexOf("; scenario: ");
        QVERIFY(at > 0);
        const auto recorded = ScenarioFormat::fromJson(probed->comment.mid(at + 12).toUtf8(), out, &error);
        QVERIFY2(recorded, qPrintable(error));
        QCOMPARE(recorded->modelPreset, QString("llama-3.1-8b"));
        QCOMPARE(recorded->prompt, QString("Hello"));
        // The time per token it states is the prediction `predict` gives the same scenario (not the timetable's).
        const QJsonObject printed = QJsonDocument::fromJson(run.out).object();
        const Run predicted =
            runCli({"predict", "--model", recorded->modelPreset, "--hardware", recorded->hardwarePreset, "--precision",
                    QString::fromLatin1(precisionId(recorded->precision).data()), "--context",
                    QString::number(recorded->contextTokens), "--batch", QString::number(recorded->batch), "--json"});
        QVERIFY2(predicted.exitCode == 0, predicted.err.constData());
        const QJsonObject prediction = QJsonDocument::fromJson(predicted.out).object();
        QCOMPARE(printed["ms_per_token"].toDouble(), prediction["ms_per_token"].toDouble());
        QCOMPARE(printed["tokens_per_second_per_user"].toDouble(), prediction["tokens_per_second_per_user"].toDouble());
        QVERIFY(printed["timetable_token_seconds"].toDouble() > 0);
    }

    void recordStreamsARealAnswer()
    {
        WS_REQUIRE_MODEL(model, "stories260K/stories260K.gguf");
        WS_REQUIRE_MODEL(reference, "stories260K/stories260K.reference.json");
        // Expected text: llama.cpp's greedy pieces for the same prompt (not produced by our code).
        QFile file(reference_q);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString expected;
        for (const QJsonValue& result : QJsonDocument::fromJson(file.readAll()).object()["results"].toArray())
            if (result["prompt"].toString() == "Once upon a time") {
                const QJsonArray pieces = result["generated_pieces"].toArray();
                for (int i = 0; i < 4; ++i)
                    expected += pieces.at(i).toString();
            }
        QVERIFY(!expected.isEmpty());
        QTemporaryDir dir;
        const QString out = dir.filePath("chat.gif");
        const Run run = runCli({"record",     "--model",  "llama-3.1-8b",
                                "--hardware", "wse3",     "--model-file",
                                model_q,      "--prompt", "Once upon a time",
                                "--tokens",   "4",        "--fps",
                                "2",          "--width",  "320",
                                "--height",   "180",      "--out",
                                out,          "--json",   "--title-seconds",
                                "0"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject printed = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(printed["answer"].toString(), expected);
        QString error;
        const auto probed = VideoProbe::probe(out, &error);
        QVERIFY2(probed, qPrintable(error));
        QCOMPARE(probed->frameCount, 8);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("render without out")
            << QStringList{"render", "--model", "llama-3.1-8b", "--hardware", "wse3"} << "--out";
        QTest::newRow("render bmp") << QStringList{"render", "--model", "llama-3.1-8b", "--hardware",
                                                   "wse3",   "--out",   "x.bmp"}
                                    << ".png or .svg";
        QTest::newRow("render gpu") << QStringList{"render", "--model", "llama-3.1-8b", "--hardware",
                                                   "h100",   "--out",   "x.png"}
                                    << "not a wafer";
        QTest::newRow("render unknown layer") << QStringList{"render",  "--model", "llama-3.1-8b", "--hardware", "wse3",
                                                             "--layer", "heat",    "--out",        "x.png"}
                                              << "--layer";
        QTest::newRow("render links layer") << QStringList{"render",  "--model", "llama-3.1-8b", "--hardware", "wse3",
                                                           "--layer", "links",   "--out",        "x.png"}
                                            << "mesh engine run";
        QTest::newRow("record values layer") << QStringList{"record",  "--model", "llama-3.1-8b", "--hardware", "wse3",
                                                            "--layer", "values",  "--out",        "x.gif"}
                                             << "--layer";
        QTest::newRow("render zero width")
            << QStringList{"render", "--model", "llama-3.1-8b", "--hardware", "wse3", "--width", "0", "--out", "x.png"}
            << "--width";
        QTest::newRow("render both sources") << QStringList{"render",     "--scenario", "a.waferscope", "--model", "m",
                                                            "--hardware", "wse3",       "--out",        "x.png"}
                                             << "either --scenario";
        QTest::newRow("render missing scenario")
            << QStringList{"render", "--scenario", "/no/such.waferscope", "--out", "x.png"} << "cannot open";
        QTest::newRow("record avi") << QStringList{"record", "--model", "llama-3.1-8b", "--hardware",
                                                   "wse3",   "--out",   "x.avi"}
                                    << ".mp4, .webm or .gif";
        QTest::newRow("record zero fps") << QStringList{"record", "--model", "llama-3.1-8b", "--hardware", "wse3",
                                                        "--fps",  "0",       "--out",        "x.mp4"}
                                         << "--fps";
        QTest::newRow("record model file missing")
            << QStringList{"record",       "--model",       "llama-3.1-8b", "--hardware", "wse3",
                           "--model-file", "/no/such.gguf", "--out",        "x.mp4"}
            << "/no/such.gguf";
        QTest::newRow("record unknown model")
            << QStringList{"record", "--model", "gpt-9", "--hardware", "wse3", "--out", "x.gif"} << "gpt-9";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QStringList inDir = args;
        for (QString& a : inDir)
            if (a.startsWith("x."))
                a = dir.filePath(a);
        const Run run = runCli(inDir);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(QString::fromUtf8(run.err).contains(expected), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0); // nothing written
    }
};

QTEST_MAIN(TestCliRender)
#include "tst_cli_render.moc"
