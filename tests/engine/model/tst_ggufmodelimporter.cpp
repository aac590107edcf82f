#include "engine/model/ggufmodelimporter.h"
#include "engine/model/modelshape.h"

#include "tests/common/testmodels.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

class TestGgufModelImporter : public QObject
{
    Q_OBJECT
private slots:
    // Expected shape from shared/models/README.md §2 (llama2.c header of the same model):
    // dim 64, hidden_dim 172, n_layers 5, n_heads 8, n_kv_heads 4, vocab 512. The GGUF
    // conversion stores output.weight as its own tensor (README: "the 48 tensors of the
    // F32 model", output.weight [64 x 512]), so as stored it is not tied.
    void importedNames()
    {
        // The file's own name alone when the file's name contains it (case aside), else both.
        QCOMPARE(ws::importedModelName("Qwen3-0.6B", "/m/Qwen3-0.6B-Q8_0.gguf"), std::string("Qwen3-0.6B"));
        QCOMPARE(ws::importedModelName("qwen3 0.6b", "/m/Qwen3-0.6B-Q8_0.gguf"),
                 std::string("qwen3 0.6b (Qwen3-0.6B-Q8_0.gguf)"));
        QCOMPARE(ws::importedModelName("llama", "/m/stories260K.gguf"), std::string("llama (stories260K.gguf)"));
        QCOMPARE(ws::importedModelName("", "/m/stories260K.gguf", "llama"), std::string("llama (stories260K.gguf)"));
        QCOMPARE(ws::importedModelName("", "stories15M.bin"), std::string("stories15M")); // no name: the stem
        QCOMPARE(ws::importedModelName("Tiny", ""), std::string("Tiny"));
    }

    void stories260K()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto m = ws::importGgufModel(path);
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : m.error().message().c_str());
        QCOMPARE(m->architecture, std::string("llama"));
        // The file calls itself "llama": shown with its file's name, which says which llama (issue 31).
        QCOMPARE(m->name, std::string("llama (stories260K.gguf)"));
        QCOMPARE(m->layers, 5);
        QCOMPARE(m->hiddenSize, 64);
        QCOMPARE(m->ffnSize, 172);
        QCOMPARE(m->headCount, 8);
        QCOMPARE(m->kvHeadCount, 4);
        QCOMPARE(m->headDim, 8);
        QCOMPARE(m->vocabSize, 512);
        QVERIFY(!m->tiedEmbeddings);
        QCOMPARE(m->nativePrecision, ws::Precision::Fp32);
    }

    void storedPrecision_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("precision");
        QTest::newRow("Q8_0") << "stories260K/stories260K-Q8_0.gguf"
                              << "int8";
        QTest::newRow("Q4_0") << "stories260K/stories260K-Q4_0.gguf"
                              << "int4";
    }
    void storedPrecision()
    {
        QFETCH(QString, file);
        QFETCH(QString, precision);
        const QString full = wstest::testModelPath(file);
        WS_REQUIRE_MODEL_FILE(full);
        auto m = ws::importGgufModel(full.toStdString());
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : m.error().message().c_str());
        QCOMPARE(QString::fromLatin1(ws::precisionId(m->nativePrecision)), precision);
        QCOMPARE(m->layers, 5);
    }

    void qwen2HasBiases()
    {
        WS_REQUIRE_MODEL(path, "random/qwen2-tiny-random.gguf");
        auto m = ws::importGgufModel(path);
        QVERIFY2(m.hasValue(), m.hasValue() ? "" : m.error().message().c_str());
        QCOMPARE(m->architecture, std::string("qwen2"));
        QVERIFY(m->attentionBias);
        QVERIFY(m->tiedEmbeddings);     // README §6: tied, no output.weight
        QVERIFY(m->vocabSize > 100000); // the real Qwen3 tokenizer's vocabulary
    }

    void truncatedFileIsAnError()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        QFile in(QString::fromStdString(path));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray head = in.read(200);
        QTemporaryDir dir;
        const QString cut = dir.filePath(QStringLiteral("cut.gguf"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(head);
        out.close();
        auto m = ws::importGgufModel(cut.toStdString());
        QVERIFY(!m.hasValue());
        QVERIFY(QString::fromStdString(m.error().message()).contains(QLatin1String("cut.gguf")));
        QVERIFY(!ws::importGgufModel(dir.filePath(QStringLiteral("absent.gguf")).toStdString()).hasValue());
    }
};

QTEST_GUILESS_MAIN(TestGgufModelImporter)
#include "tst_ggufmodelimporter.moc"
