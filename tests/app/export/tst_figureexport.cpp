// FigureExport and the Export Figure dialog: the default title and source line name the model, precision, wafers,
// hardware and the sources of the mesh size; the dialog's fields round-trip the options, a page preset sets the
// size, every field is reachable by a mnemonic, the preview draws, and Save writes a stamped PNG at the chosen DPI
// or an SVG; another suffix is refused.
#include "app/export/exportstamp.h"
#include "app/export/figuredialog.h"
#include "app/export/figureexport.h"
#include "tests/views/syntheticsnapshot.h"

#include <QComboBox>
#include <QFile>
#include <QFormLayout>
#include <QImageReader>
#include <QLabel>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace ws;

namespace {

std::shared_ptr<const MeshFrame> twoWafers()
{
    return std::make_shared<const MeshFrame>(MeshFrame{testing::makeSyntheticSnapshot(120, 180, 2, 20), {}, {}});
}

ScenarioSpec spec()
{
    ScenarioSpec s;
    s.model.name = "Qwen3-32B";
    s.hardware.name = "Cerebras WSE-3 (CS-3)";
    s.hardware.sources["meshCols"] = "fabric 762 x 1176 (Cerebras SDK [Cerebras-SDK]; [WaferLLM-repo])";
    s.hardware.sources["sramBytesPerCore"] = "48 KB per core ([STH-HC34]; [WaferLLM])";
    s.workload.precision = Precision::Bf16;
    return s;
}

} // namespace

class TestFigureExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void defaultsNameWhatIsShown()
    {
        const auto frame = twoWafers();
        const views::MeshFigureOptions o =
            FigureExport::defaults(spec(), *frame->base, MeshLayer::WeightPlacement, QStringLiteral("WaferScope 9"));
        QCOMPARE(o.layer, MeshLayer::WeightPlacement);
        QCOMPARE(o.device, -1);
        QCOMPARE(o.title, QStringLiteral("Qwen3-32B (BF16) on 2 × Cerebras WSE-3 (CS-3): Weight placement"));
        QVERIFY(o.source.startsWith(QStringLiteral("WaferScope 9 · ")));
        QVERIFY2(o.source.contains(QStringLiteral("120 × 180 cores per wafer")), qPrintable(o.source));
        QVERIFY2(o.source.contains(QStringLiteral("[Cerebras-SDK, WaferLLM-repo, STH-HC34, WaferLLM]")),
                 qPrintable(o.source));
    }

    void dialogFieldsRoundTrip()
    {
        const auto frame = twoWafers();
        views::MeshFigureOptions o = FigureExport::defaults(spec(), *frame->base, MeshLayer::SramOccupancy, "W");
        o.device = 1;
        o.dpi = 450;
        o.sizeMm = QSizeF(150, 100);
        FigureDialog dialog(frame, o, ExportStamp());
        QCOMPARE(dialog.options(), o);
        QVERIFY(!dialog.previewImage().isNull());
        // A page preset sets the size; the first one is a 16:9 slide.
        auto* preset = dialog.findChildren<QComboBox*>().at(1);
        preset->setCurrentIndex(0);
        QCOMPARE(dialog.options().sizeMm, QSizeF(338.7, 190.5));
        // Every field has a label with a mnemonic that focuses it.
        int labelled = 0;
        for (QLabel* label : dialog.findChildren<QLabel*>())
            if (label->text().contains(QLatin1Char('&'))) {
                QVERIFY2(label->buddy(), qPrintable(label->text()));
                ++labelled;
            }
        QCOMPARE(labelled, 7);
    }

    void saveWritesPngAndSvg()
    {
        QTemporaryDir dir;
        const auto frame = twoWafers();
        views::MeshFigureOptions o = FigureExport::defaults(spec(), *frame->base, MeshLayer::WeightPlacement, "W");
        o.sizeMm = QSizeF(100, 60);
        o.dpi = 300;
        const ExportStamp stamp = ExportStamp::forScenario(QByteArray(R"({"model":"qwen3-32b"})"));
        FigureDialog dialog(frame, o, stamp);
        QString error;
        const QString png = dir.filePath(QStringLiteral("f.png"));
        QVERIFY2(dialog.saveTo(png, &error), qPrintable(error));
        QImageReader reader(png);
        const QImage image = reader.read();
        QCOMPARE(image.size(), QSize(1181, 709)); // 100 × 60 mm at 300 dpi
        QCOMPARE(image.text(QLatin1String(ExportStamp::kPngScenarioKey)), QStringLiteral(R"({"model":"qwen3-32b"})"));
        const QString svg = dir.filePath(QStringLiteral("f.svg"));
        QVERIFY2(dialog.saveTo(svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.contains(stamp.svgComment()));
        QVERIFY(bytes.contains("Qwen3-32B"));
        QVERIFY(QSvgRenderer(bytes).isValid());
        QVERIFY(!dialog.saveTo(dir.filePath(QStringLiteral("f.jpg")), &error));
        QVERIFY(error.contains(QStringLiteral(".svg")));
    }
};

QTEST_MAIN(TestFigureExport)
#include "tst_figureexport.moc"
