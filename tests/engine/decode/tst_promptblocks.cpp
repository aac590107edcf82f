// Batched prompt evaluation against token by token: for every weight type the engine has a model of (the
// reference models in shared/models, and random-weight models of the types they lack), the prompt run through
// the forward pass in blocks and one token at a time gives the same greedy continuation and first-token
// logits within 1e-5 (the blocks' attention sums values in the batch order, a decode step in
// ggml_vec_dot's, as llama.cpp does). Then the generator's blocks: progress, Stop within the prompt, and the
// KV prefix kept across turns.
#include "engine/decode/decodemodel.h"
#include "engine/decode/forward.h"
#include "engine/decode/generator.h"
#include "engine/gguf/syntheticmodel.h"
#include "tests/common/testmodels.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>

using namespace ws;

namespace {

constexpr int kPromptTokens = 70;
constexpr int kGreedyTokens = 24;

std::vector<TokenId> randomPrompt(int vocab, int n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<TokenId> p(static_cast<size_t>(n));
    p[0] = 1;
    for (size_t i = 1; i < p.size(); ++i)
        p[i] = TokenId(rng() % uint32_t(vocab));
    return p;
}

struct Run
{
    std::vector<float> firstLogits;
    std::vector<TokenId> greedy;
};

// The prompt in forward calls of `block` tokens (1: token by token), then greedy decoding step by step.
Run runPrompt(const DecodeModel& m, const std::vector<TokenId>& prompt, int block, int threads, KvCacheType kv)
{
    ThreadPool pool(threads);
    RunState s(m.config(), int(prompt.size()) + kGreedyTokens + 1, std::max(block, 1), pool.threadCount(), kv);
    Run run;
    for (size_t at = 0; at < prompt.size(); at += size_t(block)) {
        const size_t n = std::min(prompt.size() - at, size_t(block));
        if (!forward(m.config(), m.weights(), s, pool, std::span(prompt).subspan(at, n), int(at)))
            return {};
    }
    run.firstLogits = s.logits;
    int pos = int(prompt.size());
    for (int i = 0; i < kGreedyTokens; ++i) {
        const TokenId next = TokenId(std::max_element(s.logits.begin(), s.logits.end()) - s.logits.begin());
        run.greedy.push_back(next);
        if (!forward(m.config(), m.weights(), s, pool, std::span(&next, 1), pos++))
            return {};
    }
    return run;
}

SyntheticModelSpec syntheticSpec(GgmlType type)
{
    SyntheticModelSpec spec;
    spec.architecture = "qwen3";
    spec.dim = 256;
    spec.hiddenDim = 768;
    spec.headCount = 8;
    spec.kvHeadCount = 4;
    spec.headDim = 64;
    spec.vocabSize = 512;
    spec.matrixType = type;
    // Float models keep float embedding and output matrices: a Q8_0 output would quantise the last activation,
    // where a difference in the last bit can flip a rounding (1/127 of the row's largest value).
    const bool isFloat = type == GgmlType::F32 || type == GgmlType::F16 || type == GgmlType::BF16;
    spec.embeddingType = isFloat ? type : GgmlType::Q8_0;
    spec.tiedOutput = false;
    spec.seed = 5;
    return spec;
}

} // namespace

class TestPromptBlocks : public QObject
{
    Q_OBJECT
private slots:
    void batchedEqualsTokenByToken_data()
    {
        QTest::addColumn<QString>("model"); // a file in shared/models, or "synthetic"
        QTest::addColumn<int>("type");      // the synthetic model's matrix type
        QTest::addColumn<int>("block");
        QTest::addColumn<int>("threads");
        // Largest |logit difference| allowed (0: bit for bit). F32/F16 matrices take tinyBLAS's order in a block
        // and ggml_vec_dot's for one token (as llama.cpp does), hence a difference in the last bits; an F16
        // matrix's activation is then rounded to F16 (ggml's vec_dot_type), where such a difference can move a
        // value by one F16 step (2^-11 of it): 2e-3 at these models' logit RMS of about 1.
        QTest::addColumn<double>("tolerance");
        QTest::addColumn<bool>("relative");
        for (const char* file :
             {"stories260K/stories260K.gguf", "stories260K/stories260K-Q8_0.gguf", "stories260K/stories260K-Q4_0.gguf",
              "stories260K/stories260K.bin", "random/llama3-tiny-random.gguf", "random/qwen2-tiny-random.gguf"})
            for (int block : {kPromptTokens, 16})
                for (int threads : {1, 2})
                    QTest::newRow(
                        qPrintable(QStringLiteral("%1 block %2 threads %3").arg(file).arg(block).arg(threads)))
                        << QString::fromLatin1(file) << 0 << block << threads << 1e-5 << false;
        for (GgmlType t : {GgmlType::F32, GgmlType::F16, GgmlType::BF16, GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q4_K,
                           GgmlType::Q5_K, GgmlType::Q6_K})
            for (int threads : {1, 2})
                QTest::newRow(qPrintable(QStringLiteral("synthetic %1 threads %2").arg(ggmlTypeName(t)).arg(threads)))
                    << QStringLiteral("synthetic") << int(t) << kPromptTokens << threads
                    << (t == GgmlType::F32   ? 1e-5
                        : t == GgmlType::F16 ? 2e-3
                                             : 0.0)
                    << false;
    }
    void batchedEqualsTokenByToken()
    {
        QFETCH(QString, model);
        QFETCH(int, type);
        QFETCH(int, block);
        QFETCH(int, threads);
        QFETCH(double, tolerance);
        QFETCH(bool, relative);
        QTemporaryDir dir;
        std::string path;
        if (model == QLatin1String("synthetic")) {
            path = dir.filePath("m.gguf").toStdString();
            QVERIFY(writeSyntheticModel(path, syntheticSpec(GgmlType(type))));
        } else {
            const QString full = wstest::testModelPath(model);
            WS_REQUIRE_MODEL_FILE(full);
            path = full.toStdString();
        }
        auto m = DecodeModel::load(path);
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        const auto prompt = randomPrompt(m->config().vocabSize, kPromptTokens, 11);
        // An F32 cache's one-token attention sums (ggml_vec_dot's order) differ from the batch's in the last bits,
        // and a quantised model's next activation rounding to Q8 can turn that into 1/127 of a row's largest
        // value. With an F16 cache both take the batch order: the random quantised models must then agree bit for
        // bit. The reference models run as llama.cpp's reference did (F32 cache), and so do the float ones.
        const bool exact =
            model == QLatin1String("synthetic") && GgmlType(type) != GgmlType::F32 && GgmlType(type) != GgmlType::F16;
        const KvCacheType kv = exact ? KvCacheType::F16 : KvCacheType::F32;
        const Run batched = runPrompt(*m, prompt, block, threads, kv);
        const Run single = runPrompt(*m, prompt, 1, threads, kv);
        QVERIFY(!batched.firstLogits.empty() && !single.firstLogits.empty());
        QCOMPARE(batched.firstLogits.size(), single.firstLogits.size());
        double maxDiff = 0, squares = 0;
        for (size_t i = 0; i < single.firstLogits.size(); ++i) {
            maxDiff = std::max(maxDiff, double(std::fabs(batched.firstLogits[i] - single.firstLogits[i])));
            squares += double(single.firstLogits[i]) * single.firstLogits[i];
        }
        const double rms = std::sqrt(squares / double(single.firstLogits.size()));
        const double allowed = relative ? tolerance * rms : tolerance;
        qInfo("max |logit difference| %g (allowed %g, logit RMS %g)", maxDiff, allowed, rms);
        QVERIFY2(maxDiff <= allowed, qPrintable(QStringLiteral("max |diff| %1").arg(maxDiff)));
        QCOMPARE(batched.greedy, single.greedy);
    }

    // Progress after every block, counting up to the prompt; blocks of two or more tokens; Stop in the prompt.
    void generatorReportsProgressAndStops()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.gguf").toStdString();
        QVERIFY(writeSyntheticModel(path, syntheticSpec(GgmlType::Q8_0)));
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        const auto prompt = randomPrompt(m->config().vocabSize, 97, 3);
        Generator gen(*m, 128, 1);
        gen.setPromptBlockTokens(16);
        std::vector<int> seen;
        gen.setPromptProgress([&](int done, int total) {
            seen.push_back(done);
            return total == 97;
        });
        GenerationSettings settings;
        settings.maxTokens = 1;
        QVERIFY(gen.start(prompt, settings));
        // 16 x 5, then 17 (a last block of one token is never left).
        QCOMPARE(seen, (std::vector<int>{16, 32, 48, 64, 80, 97}));
        QCOMPARE(gen.stopReason(), TurnEnd::None);

        gen.resetCache();
        seen.clear();
        gen.setPromptProgress([&](int done, int) {
            seen.push_back(done);
            return done < 32; // Stop while the prompt is read
        });
        QVERIFY(gen.start(prompt, settings));
        QCOMPARE(gen.stopReason(), TurnEnd::Stopped);
        QCOMPARE(seen, (std::vector<int>{16, 32}));
        QCOMPARE(gen.cachedTokens(), 32);
    }

    // A stop flag set before a pass ends it at the first layer, with Cancelled (the generator's Stop within a block).
    void forwardStopsBetweenLayers()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.gguf").toStdString();
        QVERIFY(writeSyntheticModel(path, syntheticSpec(GgmlType::Q8_0)));
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        ThreadPool pool(1);
        RunState s(m->config(), 64, 32, 1);
        const auto prompt = randomPrompt(m->config().vocabSize, 32, 4);
        std::atomic<bool> stop{true};
        const auto stopped = forward(m->config(), m->weights(), s, pool, prompt, 0, &stop);
        QVERIFY(!stopped);
        QCOMPARE(stopped.error().code, ErrorCode::Cancelled);
        stop = false;
        QVERIFY(forward(m->config(), m->weights(), s, pool, prompt, 0, &stop));
    }

    // A second turn extending the first evaluates only the new tokens, in blocks, and its logits equal those of
    // the whole prompt from an empty cache.
    void prefixReuseAcrossTurns()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.gguf").toStdString();
        QVERIFY(writeSyntheticModel(path, syntheticSpec(GgmlType::Q8_0)));
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        const auto whole = randomPrompt(m->config().vocabSize, 90, 9);
        const std::vector<TokenId> first(whole.begin(), whole.begin() + 40);
        GenerationSettings settings;
        settings.maxTokens = 0;
        Generator turns(*m, 128, 2);
        turns.setPromptBlockTokens(16);
        QVERIFY(turns.start(first, settings));
        QVERIFY(turns.start(whole, settings));
        QCOMPARE(turns.reusedPromptTokens(), 40);
        QCOMPARE(turns.evaluatedPromptTokens(), 50);
        Generator fresh(*m, 128, 2);
        fresh.setPromptBlockTokens(90);
        QVERIFY(fresh.start(whole, settings));
        const auto a = turns.logits(), b = fresh.logits();
        QVERIFY(std::equal(a.begin(), a.end(), b.begin(), b.end()));
    }
};

QTEST_GUILESS_MAIN(TestPromptBlocks)
#include "tst_promptblocks.moc"
