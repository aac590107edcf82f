#include "engine/decode/decodemodel.h"
#include "engine/decode/forward.h"
#include "engine/decode/kernels.h"
#include "engine/gguf/ggufwriter.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/testmodels.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <memory>
#include <utility>

using namespace ws;

namespace {

nlohmann::json loadJson(const QString& relative)
{
    std::ifstream f(wstest::testModelPath(relative).toStdString());
    return nlohmann::json::parse(f, nullptr, false);
}

std::vector<float> firstStepLogits(const DecodeModel& m, const std::vector<TokenId>& prompt, int threads)
{
    ThreadPool pool(threads);
    RunState state(m.config(), 64, 64, pool.threadCount());
    auto status = forward(m.config(), m.weights(), state, pool, prompt, 0);
    if (!status)
        return {};
    return state.logits;
}

// The model's matrices dequantised to F32 (owned by `storage`).
TransformerWeights dequantised(const TransformerWeights& w, std::vector<std::vector<float>>& storage)
{
    TransformerWeights out = w;
    auto convert = [&](WeightMatrix& m) {
        storage.emplace_back(size_t(m.rows) * size_t(m.cols));
        float* dst = storage.back().data();
        for (int r = 0; r < m.rows; ++r)
            dequantizeMatrixRow(m, r, dst + size_t(r) * m.cols); // packed or plain
        m.type = GgmlType::F32;
        m.packed = false;
        m.rowBytes = size_t(m.cols) * 4;
        m.data = reinterpret_cast<const uint8_t*>(dst);
    };
    for (auto& l : out.layers)
        for (WeightMatrix* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.gate, &l.up, &l.down})
            convert(*m);
    convert(out.output);
    return out;
}

} // namespace

class TestForward : public QObject
{
    Q_OBJECT
private slots:
    // First-step logits of stories260K against llama.cpp (F32 KV cache) and llama2.c's run.c, all 512.
    void stories260KLogits_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("prompt");
        QTest::addColumn<QString>("reference");
        for (const char* file : {"stories260K.gguf", "stories260K.bin"})
            for (int p = 0; p < 4; ++p)
                for (const char* ref : {"logits_llamacpp_kv_f32", "logits_llama2c_run_c"})
                    QTest::newRow(qPrintable(QStringLiteral("%1 prompt %2 %3").arg(file).arg(p).arg(ref)))
                        << QString::fromLatin1(file) << p << QString::fromLatin1(ref);
    }
    void stories260KLogits()
    {
        QFETCH(QString, file);
        QFETCH(int, prompt);
        QFETCH(QString, reference);
        const QString path = wstest::testModelPath("stories260K/" + file);
        WS_REQUIRE_MODEL_FILE(path);
        WS_REQUIRE_MODEL_FILE(wstest::testModelPath(QStringLiteral("stories260K/stories260K.reference.json")));
        const auto json = loadJson("stories260K/stories260K.reference.json");
        QVERIFY2(!json.is_discarded(), "stories260K.reference.json is not JSON");
        const auto& r = json["results"][size_t(prompt)];
        const auto expected = r["first_step"][reference.toStdString()].get<std::vector<float>>();
        auto m = DecodeModel::load(path.toStdString());
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        const auto logits = firstStepLogits(*m, r["prompt_ids_with_bos"].get<std::vector<TokenId>>(), 1);
        QCOMPARE(logits.size(), expected.size());
        float maxDiff = 0;
        for (size_t i = 0; i < logits.size(); ++i)
            maxDiff = std::max(maxDiff, std::fabs(logits[i] - expected[i]));
        qInfo("max |diff| %g", double(maxDiff));
        QVERIFY2(maxDiff <= 1e-4f, qPrintable(QStringLiteral("max |diff| %1").arg(maxDiff)));
    }

    // First-step top 5 of the quantised and random-weight models.
    void top5Logits_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<std::vector<TokenId>>("prompt");
        QTest::addColumn<std::vector<TokenId>>("ids");
        QTest::addColumn<std::vector<float>>("values");
        auto add = [](const QString& dir, const nlohmann::json& models, const char* promptKey) {
            for (const auto& m : models) {
                for (const auto& r : m["results"]) {
                    std::vector<TokenId> ids;
                    std::vector<float> values;
                    for (const auto& t : r["first_step_top5_kv_f32"]) {
                        ids.push_back(t["id"].get<TokenId>());
                        values.push_back(t["logit"].get<float>());
                    }
                    QString name =
                        QString::fromStdString(m["model"].get<std::string>() + " " + r["prompt"].get<std::string>());
                    name.replace(QLatin1Char('\n'), QLatin1String("\\n"));
                    QTest::newRow(qPrintable(name)) << dir + QString::fromStdString(m["model"].get<std::string>())
                                                    << r[promptKey].get<std::vector<TokenId>>() << ids << values;
                }
            }
        };
        const auto q = loadJson("stories260K/stories260K.quantized.reference.json");
        if (!q.is_discarded())
            add(QStringLiteral("stories260K/"), q["models"], "prompt_ids_with_bos");
        const auto rnd = loadJson("random/random.reference.json");
        if (!rnd.is_discarded())
            add(QStringLiteral("random/"), rnd["models"], "prompt_ids");
        // A reference that is missing (or not JSON) gives a row that names it, for WS_REQUIRE_MODEL_FILE.
        for (const auto& [reference, name] : {std::pair{&q, "stories260K/stories260K.quantized.reference.json"},
                                              std::pair{&rnd, "random/random.reference.json"}})
            if (reference->is_discarded())
                QTest::newRow(name) << QString::fromLatin1(name) << std::vector<TokenId>{} << std::vector<TokenId>{}
                                    << std::vector<float>{};
    }
    void top5Logits()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<TokenId>, prompt);
        QFETCH(std::vector<TokenId>, ids);
        QFETCH(std::vector<float>, values);
        const QString path = wstest::testModelPath(model);
        WS_REQUIRE_MODEL_FILE(path);
        auto m = DecodeModel::load(path.toStdString());
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        const auto logits = firstStepLogits(*m, prompt, 1);
        QVERIFY(!logits.empty());
        for (size_t i = 0; i < ids.size(); ++i)
            QVERIFY2(
                std::fabs(logits[size_t(ids[i])] - values[i]) <= 1e-4f,
                qPrintable(QStringLiteral("id %1: %2 vs %3").arg(ids[i]).arg(logits[size_t(ids[i])]).arg(values[i])));
    }

    // Splitting rows across threads must not change a single bit.
    void threadsGiveIdenticalLogits()
    {
        QTemporaryDir dir;
        SyntheticModelSpec spec;
        spec.dim = 256;
        spec.hiddenDim = 768;
        spec.headCount = 8;
        spec.kvHeadCount = 4;
        spec.matrixType = GgmlType::Q8_0;
        spec.vocabSize = 1024;
        const std::string path = dir.filePath("t.gguf").toStdString();
        QVERIFY(writeSyntheticModel(path, spec));
        auto m = DecodeModel::load(path);
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        const std::vector<TokenId> prompt{3, 14, 15, 92, 65, 35};
        const auto one = firstStepLogits(*m, prompt, 1);
        const auto two = firstStepLogits(*m, prompt, 2);
        const auto three = firstStepLogits(*m, prompt, 3);
        QVERIFY(!one.empty());
        QCOMPARE(one, two);
        QCOMPARE(one, three);
    }

    // Every architecture and matrix type runs, and agrees with the same weights dequantised to F32
    // (the only difference being the activation's quantisation for the dot product).
    void architecturesAndTypesAgreeWithF32_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("headDim");
        // Relative to the logits' RMS. The synthetic K-quant blocks are random bytes, which makes "hot" models
        // (logit RMS 10-20) where the Q8_K activation rounding shows more than with real weights.
        QTest::addColumn<double>("tolerance");
        for (const char* arch : {"llama", "qwen2", "qwen3"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 Q8_0").arg(arch)))
                << QString(arch) << int(GgmlType::Q8_0) << 0 << 0.05;
            QTest::newRow(qPrintable(QStringLiteral("%1 Q4_K").arg(arch)))
                << QString(arch) << int(GgmlType::Q4_K) << 0 << 0.1;
        }
        QTest::newRow("qwen3 Q6_K head_dim 128") << "qwen3" << int(GgmlType::Q6_K) << 128 << 0.1;
        QTest::newRow("llama F16") << "llama" << int(GgmlType::F16) << 0 << 0.01;
        QTest::newRow("llama BF16") << "llama" << int(GgmlType::BF16) << 0 << 0.02;
        QTest::newRow("qwen2 Q4_0") << "qwen2" << int(GgmlType::Q4_0) << 0 << 0.05;
    }
    void architecturesAndTypesAgreeWithF32()
    {
        QFETCH(QString, arch);
        QFETCH(int, type);
        QFETCH(int, headDim);
        QFETCH(double, tolerance);
        QTemporaryDir dir;
        SyntheticModelSpec spec;
        spec.architecture = arch.toStdString();
        spec.dim = 256;
        spec.hiddenDim = 512;
        spec.headCount = 4;
        spec.kvHeadCount = 2;
        spec.headDim = headDim;
        spec.matrixType = static_cast<GgmlType>(type);
        const std::string path = dir.filePath("m.gguf").toStdString();
        QVERIFY(writeSyntheticModel(path, spec));
        auto m = DecodeModel::load(path);
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        QCOMPARE(m->config().qkNorm, arch == "qwen3");
        QCOMPARE(m->config().qkvBias, arch == "qwen2");
        const std::vector<TokenId> prompt{1, 2, 3, 4, 5, 6, 7, 8, 9};
        const auto logits = firstStepLogits(*m, prompt, 1);
        QVERIFY(!logits.empty());
        std::vector<std::vector<float>> storage;
        const TransformerWeights f32 = dequantised(m->weights(), storage);
        ThreadPool pool(1);
        RunState state(m->config(), 64, 64, 1);
        QVERIFY(forward(m->config(), f32, state, pool, prompt, 0));
        double rms = 0, maxDiff = 0;
        for (size_t i = 0; i < logits.size(); ++i) {
            QVERIFY(std::isfinite(logits[i]));
            rms += double(state.logits[i]) * state.logits[i];
            maxDiff = std::max(maxDiff, double(std::fabs(logits[i] - state.logits[i])));
        }
        rms = std::sqrt(rms / double(logits.size()));
        QVERIFY(rms > 0.1);
        QVERIFY2(maxDiff <= tolerance * rms, qPrintable(QStringLiteral("max diff %1, rms %2").arg(maxDiff).arg(rms)));
    }

    void rejectsIncompleteModels()
    {
        QTemporaryDir dir;
        auto header = [](GgufWriter& w) {
            w.addString("general.architecture", "llama");
            w.addU32("llama.embedding_length", 32);
            w.addU32("llama.feed_forward_length", 64);
            w.addU32("llama.block_count", 1);
            w.addU32("llama.attention.head_count", 4);
            w.addTensor("token_embd.weight", GgmlType::F32, {32, 16}, std::vector<uint8_t>(32 * 16 * 4));
            w.addTensor("output_norm.weight", GgmlType::F32, {32}, std::vector<uint8_t>(32 * 4));
            w.addTensor("blk.0.attn_norm.weight", GgmlType::F32, {32}, std::vector<uint8_t>(32 * 4));
        };
        GgufWriter missing;
        header(missing);
        const std::string a = dir.filePath("missing.gguf").toStdString();
        QVERIFY(missing.writeFile(a));
        auto m = DecodeModel::load(a);
        QVERIFY(!m);
        QVERIFY2(m.error().message().find("blk.0.attn_q.weight: tensor is missing") != std::string::npos,
                 m.error().message().c_str());
        GgufWriter wrongShape;
        header(wrongShape);
        wrongShape.addTensor("blk.0.attn_q.weight", GgmlType::F32, {32, 31}, std::vector<uint8_t>(32 * 31 * 4));
        const std::string b = dir.filePath("shape.gguf").toStdString();
        QVERIFY(wrongShape.writeFile(b));
        m = DecodeModel::load(b);
        QVERIFY(!m);
        QVERIFY2(m.error().message().find("shape.gguf: blk.0.attn_q.weight: has shape [32, 31], expected [32, 32]") !=
                     std::string::npos,
                 m.error().message().c_str());
    }

    void rejectsBadCalls()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.gguf").toStdString();
        QVERIFY(writeSyntheticModel(path, SyntheticModelSpec{}));
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        ThreadPool pool(1);
        RunState state(m->config(), 8, 4, 1);
        const std::vector<TokenId> five{1, 2, 3, 4, 5};
        QCOMPARE(forward(m->config(), m->weights(), state, pool, five, 0).error().code, ErrorCode::InvalidArgument);
        const std::vector<TokenId> two{1, 2};
        QCOMPARE(forward(m->config(), m->weights(), state, pool, two, 7).error().code, ErrorCode::OutOfRange);
        const std::vector<TokenId> bad{256};
        QCOMPARE(forward(m->config(), m->weights(), state, pool, bad, 0).error().code, ErrorCode::InvalidArgument);
    }
};

QTEST_GUILESS_MAIN(TestForward)
#include "tst_forward.moc"
