#include "engine/model/modelpresetparser.h"
#include "engine/model/modelshape.h"

#include "tests/common/testmodels.h"

#include <QFile>
#include <QTest>

namespace {
ws::ModelConfig loadPreset(const QString& id)
{
    QFile file(wstest::sourcePath(QStringLiteral("resources/presets/models/%1.json").arg(id)));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open preset %s", qPrintable(id));
    const QByteArray text = file.readAll();
    auto m = ws::parseModelPreset(std::string_view(text.constData(), size_t(text.size())), id.toStdString());
    if (!m)
        qFatal("%s", m.error().message().c_str());
    return *m;
}
} // namespace

class TestModelShape : public QObject
{
    Q_OBJECT
private slots:
    // Expected values are the [derived] table of shared/facts/hardware-and-models.md §3
    // (computed independently there, quoted to three significant figures).
    void matchesFactsTable_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("totalBillions");
        QTest::addColumn<double>("readGb16");
        QTest::addColumn<int>("kvKiB16");
        QTest::newRow("qwen3-0.6b") << "qwen3-0.6b" << 0.60 << 1.19 << 112;
        QTest::newRow("qwen3-1.7b") << "qwen3-1.7b" << 1.72 << 3.44 << 112;
        QTest::newRow("qwen3-4b") << "qwen3-4b" << 4.02 << 8.04 << 144;
        QTest::newRow("qwen3-8b") << "qwen3-8b" << 8.19 << 15.1 << 144;
        QTest::newRow("qwen3-14b") << "qwen3-14b" << 14.8 << 28.0 << 160;
        QTest::newRow("qwen3-32b") << "qwen3-32b" << 32.8 << 64.0 << 256;
        QTest::newRow("llama-3.1-8b") << "llama-3.1-8b" << 8.03 << 15.0 << 128;
        QTest::newRow("llama-3.1-70b") << "llama-3.1-70b" << 70.6 << 139.0 << 320;
        QTest::newRow("llama-3.1-405b") << "llama-3.1-405b" << 405.9 << 808.0 << 504;
        QTest::newRow("gemma-3-27b") << "gemma-3-27b" << 27.0 << 54.0 << 496;
        QTest::newRow("mistral-7b") << "mistral-7b" << 7.24 << 14.2 << 128;
        QTest::newRow("qwen3-30b-a3b") << "qwen3-30b-a3b" << 30.5 << 6.1 << 96;
        QTest::newRow("qwen3-235b-a22b") << "qwen3-235b-a22b" << 235.0 << 43.1 << 188;
        QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 116.8 << 10.3 << 72;
    }
    void matchesFactsTable()
    {
        QFETCH(QString, id);
        QFETCH(double, totalBillions);
        QFETCH(double, readGb16);
        QFETCH(int, kvKiB16);
        const ws::ModelShape shape(loadPreset(id));
        const double total = double(shape.totalParameters()) / 1e9;
        QVERIFY2(std::abs(total - totalBillions) / totalBillions < 0.01, qPrintable(QString::number(total)));
        const double read = double(shape.bytesReadPerToken(ws::Precision::Bf16)) / 1e9;
        QVERIFY2(std::abs(read - readGb16) / readGb16 < 0.015, qPrintable(QString::number(read)));
        QCOMPARE(shape.kvBytesPerToken(2), int64_t(kvKiB16) * 1024);
    }

    void publishedActiveCounts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("totalBillions");
        QTest::addColumn<double>("activeBillions");
        QTest::addColumn<bool>("cardCountsEmbedding");
        // Model cards: Qwen3-30B-A3B 30.5B / 3.3B, Qwen3-235B-A22B 235B / 22B,
        // Llama-4-Maverick 400B / 17B, Mixtral-8x7B 46.7B / 12.9B; gpt-oss-120b
        // 116.8B / 5.1B active, which OpenAI counts without the embedding table (facts §3).
        QTest::newRow("qwen3-30b-a3b") << "qwen3-30b-a3b" << 30.5 << 3.3 << true;
        QTest::newRow("qwen3-235b-a22b") << "qwen3-235b-a22b" << 235.0 << 22.0 << true;
        QTest::newRow("llama-4-maverick") << "llama-4-maverick" << 400.0 << 17.0 << true;
        QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << 46.7 << 12.9 << true;
        QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 116.8 << 5.1 << false;
    }
    void publishedActiveCounts()
    {
        QFETCH(QString, id);
        QFETCH(double, totalBillions);
        QFETCH(double, activeBillions);
        QFETCH(bool, cardCountsEmbedding);
        const ws::ModelShape shape(loadPreset(id));
        const double total = double(shape.totalParameters()) / 1e9;
        const double active =
            double(shape.activeParameters() - (cardCountsEmbedding ? 0 : shape.embeddingParameters())) / 1e9;
        QVERIFY2(std::abs(total - totalBillions) / totalBillions < 0.02, qPrintable(QString::number(total)));
        QVERIFY2(std::abs(active - activeBillions) / activeBillions < 0.05, qPrintable(QString::number(active)));
    }

    void bytesPerPrecision_data()
    {
        QTest::addColumn<QString>("precision");
        QTest::addColumn<double>("bytesPerMatrixParam");
        QTest::newRow("fp32") << "fp32" << 4.0;
        QTest::newRow("bf16") << "bf16" << 2.0;
        QTest::newRow("fp16") << "fp16" << 2.0;
        QTest::newRow("fp8") << "fp8" << 1.0;
        QTest::newRow("int8 with Q8_0 scales") << "int8" << 34.0 / 32.0;
        QTest::newRow("int4 with Q4_0 scales") << "int4" << 18.0 / 32.0;
    }
    void bytesPerPrecision()
    {
        QFETCH(QString, precision);
        QFETCH(double, bytesPerMatrixParam);
        const auto p = *ws::parsePrecision(precision.toStdString());
        const ws::ModelShape shape(loadPreset(QStringLiteral("llama-3.1-8b")));
        int64_t matrixParams = 0;
        int64_t vectorParams = 0;
        for (const auto& t : shape.tensors())
            (t.isVector() ? vectorParams : matrixParams) += t.parameters();
        const double expected =
            double(matrixParams) * bytesPerMatrixParam + double(vectorParams) * ws::vectorBytesPerValue(p);
        QCOMPARE(double(shape.totalBytes(p)), expected);
    }

    void tiedModelHasNoOutputTensor()
    {
        const ws::ModelShape tied(loadPreset(QStringLiteral("qwen3-0.6b")));
        QCOMPARE(tied.bytesByKind(ws::TensorKind::Output, ws::Precision::Bf16), int64_t(0));
        const ws::ModelShape untied(loadPreset(QStringLiteral("qwen3-8b")));
        QCOMPARE(untied.bytesByKind(ws::TensorKind::Output, ws::Precision::Bf16),
                 untied.bytesByKind(ws::TensorKind::TokenEmbedding, ws::Precision::Bf16));
    }

    void slidingWindowCapsKv()
    {
        const ws::ModelConfig gemma = loadPreset(QStringLiteral("gemma-3-27b"));
        const ws::ModelShape shape(gemma);
        // 62 layers, every 6th global: 10 global layers at 32K, 52 local at 1024 tokens.
        const int64_t perTokenPerLayer = 2 * gemma.kvDim() * 2;
        QCOMPARE(shape.kvBytes(32768, 2), perTokenPerLayer * (10 * 32768 + 52 * 1024));
        QCOMPARE(shape.kvBytes(512, 2), perTokenPerLayer * 62 * 512);
    }

    void layersSumToTotal()
    {
        const ws::ModelShape shape(loadPreset(QStringLiteral("llama-4-maverick")));
        int64_t sum = shape.globalBytes(ws::Precision::Int4);
        for (int l = 0; l < shape.config().layers; ++l)
            sum += shape.layerBytes(l, ws::Precision::Int4);
        QCOMPARE(sum, shape.totalBytes(ws::Precision::Int4));
        // Dense and MoE layers alternate (interleave step 2).
        QVERIFY(shape.layerBytes(1, ws::Precision::Bf16) > 10 * shape.layerBytes(0, ws::Precision::Bf16));
    }
};

QTEST_GUILESS_MAIN(TestModelShape)
#include "tst_modelshape.moc"
