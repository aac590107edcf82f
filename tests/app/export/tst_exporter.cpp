// Exporter: widgets to PNG at a scale and to SVG that Qt's SVG renderer reads;
// tables to CSV and JSON that parse back; all writes atomic; every file records
// the version and scenario that made it, and they read back.
#include "app/common/buildinfo.h"
#include "app/export/exporter.h"
#include "app/export/snapshottables.h"
#include "app/record/widgetframesource.h"
#include "app/scenario/scenarioformat.h"

#include <QChart>
#include <QChartView>
#include <QFile>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using namespace ws;

namespace {

// Left half red, right half blue: lets a test check that pixels land where they should.
class TwoColourWidget : public QWidget
{
public:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.fillRect(QRect(0, 0, width() / 2, height()), Qt::red);
        painter.fillRect(QRect(width() / 2, 0, width() - width() / 2, height()), Qt::blue);
    }
};

DataTable sampleTable()
{
    DataTable table;
    table.name = "phases";
    table.columns = {"phase", "cycles", "seconds", "note"};
    table.rows = {{QString("attn_q"), qlonglong(1234), 0.1, QString("plain")},
                  {QString("ffn, up"), qlonglong(5), 1e-9, QString("says \"hi\"\nnext line")}};
    table.inputs = QJsonObject{{"model", "qwen3-32b"}, {"hardware", "wse3"}};
    table.sources = QJsonObject{{"clockHz", "facts/hardware-and-models.md"}};
    return table;
}

} // namespace

class TestExporter : public QObject
{
    Q_OBJECT

private slots:
    void pngAtScale_data()
    {
        QTest::addColumn<double>("scale");
        QTest::newRow("1x") << 1.0;
        QTest::newRow("2x") << 2.0;
        QTest::newRow("1.5x") << 1.5;
    }
    void pngAtScale()
    {
        QFETCH(double, scale);
        TwoColourWidget widget;
        widget.resize(120, 80);
        QTemporaryDir dir;
        const QString path = dir.filePath("w.png");
        QString error;
        QVERIFY2(Exporter::savePng(&widget, path, scale, &error), qPrintable(error));
        QImage image(path);
        QCOMPARE(image.size(), QSize(int(120 * scale), int(80 * scale)));
        QCOMPARE(QColor(image.pixel(5, image.height() / 2)), QColor(Qt::red));
        QCOMPARE(QColor(image.pixel(image.width() - 5, image.height() / 2)), QColor(Qt::blue));
    }

    void badScaleWritesNothing()
    {
        TwoColourWidget widget;
        widget.resize(20, 20);
        QTemporaryDir dir;
        const QString path = dir.filePath("w.png");
        QString error;
        QVERIFY(!Exporter::savePng(&widget, path, 100.0, &error));
        QVERIFY(error.contains("scale"));
        QVERIFY(!QFile::exists(path));
    }

    void svgOfAChartReadsBack()
    {
        auto* series = new QLineSeries;
        series->append(0, 1);
        series->append(1, 3);
        series->append(2, 2);
        auto* chart = new QChart;
        chart->addSeries(series);
        chart->createDefaultAxes();
        chart->setTitle("tokens/s");
        QChartView view(chart);
        view.resize(400, 300);
        QTemporaryDir dir;
        const QString path = dir.filePath("chart.svg");
        QString error;
        QVERIFY2(Exporter::saveSvg(&view, path, "chart", &error), qPrintable(error));
        QSvgRenderer renderer(path);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 400, 300));
        // It draws something: the rendered SVG is not a blank image.
        QImage image(400, 300, QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 2);
    }

    void svgKeepsWidgetColours()
    {
        TwoColourWidget widget;
        widget.resize(100, 50);
        QSvgRenderer renderer(Exporter::svgBytes(&widget, "two"));
        QVERIFY(renderer.isValid());
        QImage image(100, 50, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        QCOMPARE(QColor(image.pixel(10, 25)), QColor(Qt::red));
        QCOMPARE(QColor(image.pixel(90, 25)), QColor(Qt::blue));
    }

    void csvQuotesWhatNeedsIt()
    {
        const QByteArray csv = Exporter::toCsv(sampleTable());
        // Without a scenario, the table's inputs stand for it (compact JSON, sorted keys).
        const QByteArray expected = "# generator: " + BuildInfo::generator().toUtf8() +
                                    "\r\n"
                                    "# scenario: {\"hardware\":\"wse3\",\"model\":\"qwen3-32b\"}\r\n"
                                    "phase,cycles,seconds,note\r\n"
                                    "attn_q,1234,0.1,plain\r\n"
                                    "\"ffn, up\",5,1e-09,\"says \"\"hi\"\"\nnext line\"\r\n";
        QCOMPARE(csv, expected);
    }

    void jsonReadsBackWithInputsAndSources()
    {
        const QJsonDocument doc = QJsonDocument::fromJson(Exporter::toJson(sampleTable()));
        QVERIFY(doc.isObject());
        const QJsonObject root = doc.object();
        QCOMPARE(root["name"].toString(), QString("phases"));
        QCOMPARE(root["rows"].toArray().size(), 2);
        const QJsonObject second = root["rows"].toArray().at(1).toObject();
        QCOMPARE(second["phase"].toString(), QString("ffn, up"));
        QCOMPARE(second["cycles"].toDouble(), 5.0);
        QCOMPARE(second["seconds"].toDouble(), 1e-9);
        QCOMPARE(root["inputs"].toObject()["hardware"].toString(), QString("wse3"));
        QCOMPARE(root["sources"].toObject()["clockHz"].toString(), QString("facts/hardware-and-models.md"));
    }

    void pngTextCarriesVersionAndScenario()
    {
        TwoColourWidget widget;
        widget.resize(40, 30);
        QTemporaryDir dir;
        const QString path = dir.filePath("stamped.png");
        const QByteArray scenario = ScenarioFormat::toJson(Scenario{});
        QString error;
        QVERIFY2(Exporter::savePng(&widget, path, 1.0, &error, ExportStamp::forScenario(scenario)), qPrintable(error));
        QImageReader reader(path);
        QVERIFY(reader.text("Software").startsWith("WaferScope " WAFERSCOPE_TEST_VERSION " (git "));
        QCOMPARE(reader.text("Software"), BuildInfo::generator());
        // The scenario reads back into the same scenario: the figure can be reopened.
        const auto reopened = ScenarioFormat::fromJson(reader.text("WaferScope-Scenario").toUtf8(), "png", &error);
        QVERIFY2(reopened, qPrintable(error));
        QCOMPARE(*reopened, Scenario{});
        QCOMPARE(QColor(reader.read().pixel(5, 15)), QColor(Qt::red)); // still the picture
    }

    void pngWithoutScenarioStillNamesTheVersion()
    {
        TwoColourWidget widget;
        widget.resize(20, 20);
        QTemporaryDir dir;
        QString error;
        QVERIFY(Exporter::savePng(&widget, dir.filePath("w.png"), 1.0, &error));
        QImageReader reader(dir.filePath("w.png"));
        QCOMPARE(reader.text("Software"), BuildInfo::generator());
        QVERIFY(reader.text("WaferScope-Scenario").isEmpty());
    }

    void svgCommentCarriesVersionAndScenario()
    {
        TwoColourWidget widget;
        widget.resize(100, 50);
        Scenario scenario;
        scenario.prompt = QStringLiteral("a -- b --> c --- 晶圆"); // "--" may not appear in an XML comment
        QTemporaryDir dir;
        const QString path = dir.filePath("stamped.svg");
        QString error;
        QVERIFY2(
            Exporter::saveSvg(&widget, path, "two", &error, ExportStamp::forScenario(ScenarioFormat::toJson(scenario))),
            qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray svg = file.readAll();
        QVERIFY(svg.startsWith("<?xml"));
        const qsizetype open = svg.indexOf("<!-- ");
        const qsizetype close = svg.indexOf(" -->", open);
        QVERIFY(open > svg.indexOf("?>") && close > open);
        const QByteArray body = svg.mid(open + 5, close - open - 5);
        QVERIFY(!body.contains("--"));
        const QByteArray prefix = BuildInfo::generator().toUtf8() + "; scenario: ";
        QVERIFY(body.startsWith(prefix));
        const auto reopened = ScenarioFormat::fromJson(body.mid(prefix.size()), "svg", &error);
        QVERIFY2(reopened, qPrintable(error));
        QCOMPARE(reopened->prompt, scenario.prompt);
        QCOMPARE(*reopened, scenario);
        QSvgRenderer renderer(svg); // still a valid SVG
        QVERIFY(renderer.isValid());
    }

    void tablesCarryVersionAndScenario()
    {
        Scenario scenario;
        scenario.modelPreset = QStringLiteral("qwen3-32b");
        const ExportStamp stamp = ExportStamp::forScenario(ScenarioFormat::toJson(scenario));
        const QList<QByteArray> lines = Exporter::toCsv(sampleTable(), stamp).split('\n');
        QCOMPARE(lines.at(0), "# generator: " + BuildInfo::generator().toUtf8() + "\r");
        QVERIFY(lines.at(1).startsWith("# scenario: {"));
        QString error;
        const auto fromCsv = ScenarioFormat::fromJson(lines.at(1).mid(12).trimmed(), "csv", &error);
        QVERIFY2(fromCsv, qPrintable(error));
        QCOMPARE(*fromCsv, scenario);
        QCOMPARE(lines.at(2), QByteArray("phase,cycles,seconds,note\r"));

        const QJsonObject root = QJsonDocument::fromJson(Exporter::toJson(sampleTable(), stamp)).object();
        QCOMPARE(root["generator"].toString(), BuildInfo::generator());
        const auto fromJson =
            ScenarioFormat::fromJson(QJsonDocument(root["scenario"].toObject()).toJson(), "json", &error);
        QVERIFY2(fromJson, qPrintable(error));
        QCOMPARE(*fromJson, scenario);
        // Without a scenario the inputs stand for it.
        const QJsonObject plain = QJsonDocument::fromJson(Exporter::toJson(sampleTable())).object();
        QCOMPARE(plain["scenario"].toObject(), sampleTable().inputs);
        QCOMPARE(plain["generator"].toString(), BuildInfo::generator());
    }

    void savedTablesAreStamped_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("csv") << "t.csv";
        QTest::newRow("json") << "t.json";
    }
    void savedTablesAreStamped()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        QString error;
        QVERIFY(Exporter::saveTable(sampleTable(), dir.filePath(name), &error,
                                    ExportStamp::forScenario(ScenarioFormat::toJson(Scenario{}))));
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.contains(BuildInfo::generator().toUtf8()));
        QVERIFY(bytes.contains("qwen3-32b")); // the default scenario's model preset
    }

    void tableSuffixChoosesFormat_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("ok");
        QTest::newRow("csv") << "t.csv" << true;
        QTest::newRow("json upper case") << "t.JSON" << true;
        QTest::newRow("txt rejected") << "t.txt" << false;
    }
    void tableSuffixChoosesFormat()
    {
        QFETCH(QString, name);
        QFETCH(bool, ok);
        QTemporaryDir dir;
        QString error;
        QCOMPARE(Exporter::saveTable(sampleTable(), dir.filePath(name), &error), ok);
        QCOMPARE(QFile::exists(dir.filePath(name)), ok);
        QCOMPARE(error.isEmpty(), ok);
    }

    void failedWriteKeepsOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("locked/out.csv");
        QString error;
        QVERIFY(!Exporter::saveTable(sampleTable(), path, &error));
        QVERIFY(error.contains(path));
    }

    void sramMapHasOneRowPerCore()
    {
        MeshSnapshot s;
        s.meshCols = 3;
        s.meshRows = 2;
        s.deviceCount = 1;
        s.sramBytesPerCore = 48 * 1024;
        s.sramFraction = {{0.5f, 0.25f, 0.f, 1.f, 0.f, 0.f}};
        s.owners = {MeshOwner{}, MeshOwner{7, "ffn_up"}};
        s.owner = {{1, 1, 0, 1, 0, 0}};
        s.coreState = {{CoreState::Healthy, CoreState::Healthy, CoreState::Dead, CoreState::Healthy,
                        CoreState::SpareIdle, CoreState::Healthy}};
        const DataTable table = SnapshotTables::sramMap(s);
        QCOMPARE(table.rowCount(), 6);
        const QVariantList core1 = table.row(1); // x = 1, y = 0
        QCOMPARE(core1.at(1).toInt(), 1);
        QCOMPARE(core1.at(2).toInt(), 0);
        QCOMPARE(core1.at(3).toLongLong(), 12 * 1024LL);
        QCOMPARE(core1.at(6).toInt(), 7);
        QCOMPARE(core1.at(7).toString(), QString("ffn_up"));
        QCOMPARE(table.row(2).at(9).toString(), QString("dead"));
        QCOMPARE(table.row(3).at(2).toInt(), 1); // fourth core is on row 1
        // No KV array and no dataflow frame: those values are unknown, written as empty fields, not 0.
        QVERIFY(!core1.at(5).isValid());
        QVERIFY(!core1.at(8).isValid());
        const QList<QByteArray> lines = Exporter::toCsv(table).split('\n');
        QCOMPARE(lines.at(4), QByteArray("0,1,0,12288,0.25,,7,ffn_up,,healthy\r")); // 2 stamp lines, header, core 0, 1
        const QJsonObject row1 =
            QJsonDocument::fromJson(Exporter::toJson(table)).object()["rows"].toArray().at(1).toObject();
        QVERIFY(row1["kv_fraction"].isNull());
        QVERIFY(row1["activity"].isNull());
        QCOMPARE(row1["sram_used_bytes"].toInteger(), 12 * 1024);
    }

    void widgetFrameSideBySide()
    {
        TwoColourWidget heatmap; // red | blue
        heatmap.resize(200, 100);
        QWidget chat;
        chat.setAutoFillBackground(true);
        QPalette palette = chat.palette();
        palette.setColor(QPalette::Window, Qt::green);
        chat.setPalette(palette);
        chat.resize(100, 100);
        const QImage frame = WidgetFrameSource::grab(&heatmap, &chat, QSize(300, 100));
        QCOMPARE(frame.size(), QSize(300, 100));
        QCOMPARE(QColor(frame.pixel(20, 50)), QColor(Qt::red));
        QCOMPARE(QColor(frame.pixel(180, 50)), QColor(Qt::blue));
        QCOMPARE(QColor(frame.pixel(280, 50)), QColor(Qt::green));
        const QImage alone = WidgetFrameSource::grab(&heatmap, nullptr, QSize(400, 400)); // letterboxed
        QCOMPARE(QColor(alone.pixel(20, 200)), QColor(Qt::red));
        QVERIFY(QColor(alone.pixel(200, 10)) != QColor(Qt::red));
    }

    void sramMapSkipsMismatchedArrays()
    {
        MeshSnapshot s;
        s.meshCols = 4;
        s.meshRows = 4;
        s.deviceCount = 2;
        s.sramFraction = {std::vector<float>(16, 0.5f), std::vector<float>(3, 0.5f)}; // device 1 is bad input
        QCOMPARE(SnapshotTables::sramMap(s).rowCount(), 16);
    }
};

QTEST_MAIN(TestExporter)
#include "tst_exporter.moc"
