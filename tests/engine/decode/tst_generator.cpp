// Golden tests against llama.cpp: the expected ids come from the reference JSON files in
// shared/models (made with llama.cpp, F32 KV cache), read at run time.
#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/gguf/mappedfile.h"
#include "engine/gguf/syntheticmodel.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/common/testmodels.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>
#include <utility>

using ws::DecodeModel;
using ws::GenerationSettings;
using ws::Generator;
using ws::TokenId;
using ws::TurnEnd;

namespace {

nlohmann::json loadJson(const QString& relative)
{
    std::ifstream f(wstest::testModelPath(relative).toStdString());
    return nlohmann::json::parse(f, nullptr, false);
}

std::vector<TokenId> ids(const nlohmann::json& j)
{
    return j.get<std::vector<TokenId>>();
}

struct GoldenCase
{
    QString name;
    QString model;
    std::vector<TokenId> prompt;
    std::vector<TokenId> expected;
};

std::vector<GoldenCase> goldenCases()
{
    std::vector<GoldenCase> cases;
    const auto f32 = loadJson("stories260K/stories260K.reference.json");
    if (!f32.is_discarded()) {
        for (const auto& r : f32["results"]) {
            const QString prompt = QString::fromStdString(r["prompt"].get<std::string>());
            for (const char* file : {"stories260K.gguf", "stories260K.bin"})
                cases.push_back({QStringLiteral("%1 | %2").arg(QLatin1String(file), prompt),
                                 QStringLiteral("stories260K/") + QLatin1String(file), ids(r["prompt_ids_with_bos"]),
                                 ids(r["generated_ids"])});
        }
    }
    const auto quant = loadJson("stories260K/stories260K.quantized.reference.json");
    if (!quant.is_discarded()) {
        for (const auto& m : quant["models"]) {
            const QString file = QString::fromStdString(m["model"].get<std::string>());
            for (const auto& r : m["results"])
                cases.push_back({file + " | " + QString::fromStdString(r["prompt"].get<std::string>()),
                                 "stories260K/" + file, ids(r["prompt_ids_with_bos"]), ids(r["generated_ids"])});
        }
    }
    const auto random = loadJson("random/random.reference.json");
    if (!random.is_discarded()) {
        for (const auto& m : random["models"]) {
            const QString file = QString::fromStdString(m["model"].get<std::string>());
            for (const auto& r : m["results"])
                cases.push_back({file + " | " + QString::fromStdString(r["prompt"].get<std::string>()).left(12),
                                 "random/" + file, ids(r["prompt_ids"]), ids(r["generated_ids"])});
        }
    }
    // A reference that is missing (or not JSON) gives a case that names it, for WS_REQUIRE_MODEL_FILE.
    for (const auto& [reference, name] : {std::pair{&f32, "stories260K/stories260K.reference.json"},
                                          std::pair{&quant, "stories260K/stories260K.quantized.reference.json"},
                                          std::pair{&random, "random/random.reference.json"}})
        if (reference->is_discarded())
            cases.push_back({QString::fromLatin1(name), QString::fromLatin1(name), {}, {}});
    return cases;
}

// A plain vocabulary of `size` tokens "t0", "t1", ... with the given EOS id (kNoToken: none).
ws::Expected<ws::Tokenizer> vocabulary(int size, TokenId eos)
{
    ws::Vocab v;
    for (int i = 0; i < size; ++i) {
        std::string text = std::to_string(i);
        text.insert(text.begin(), 't'); // (not "t" + ...: GCC 12 -Wrestrict false positive at -O3)
        v.tokens.push_back(std::move(text));
    }
    v.scores.assign(size_t(size), 0.0f);
    v.types.assign(size_t(size), ws::TokenType::Normal);
    v.eosId = eos;
    return ws::Tokenizer::fromVocab(std::move(v));
}

} // namespace

class TestGenerator : public QObject
{
    Q_OBJECT
private slots:
    void greedyMatchesLlamaCpp_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<std::vector<TokenId>>("prompt");
        QTest::addColumn<std::vector<TokenId>>("expected");
        QTest::addColumn<int>("threads");
        const auto cases = goldenCases();
        for (const auto& c : cases) {
            QString name = c.name;
            name.replace(QLatin1Char('\n'), QLatin1String("\\n"));
            QTest::newRow(qPrintable(name)) << c.model << c.prompt << c.expected << 1;
            QTest::newRow(qPrintable(name + " | 2 threads")) << c.model << c.prompt << c.expected << 2;
        }
    }
    void greedyMatchesLlamaCpp()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<TokenId>, prompt);
        QFETCH(std::vector<TokenId>, expected);
        QFETCH(int, threads);
        const QString path = wstest::testModelPath(model);
        WS_REQUIRE_MODEL_FILE(path);
        auto m = DecodeModel::load(path.toStdString());
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        Generator gen(*m, 512, threads);
        GenerationSettings settings;
        settings.maxTokens = int(expected.size());
        settings.stopAtEndOfGeneration = false;
        auto result = gen.generate(prompt, settings);
        QVERIFY2(result, result ? "" : result.error().message().c_str());
        QCOMPARE(result->reason, TurnEnd::TokenLimit);
        QCOMPARE(result->tokens, expected);
    }

    void stepApiEqualsGenerate()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        const std::vector<TokenId> prompt{1, 403, 407, 261, 378};
        GenerationSettings settings;
        settings.maxTokens = 20;
        Generator a(*m, 64, 1);
        auto full = a.generate(prompt, settings);
        QVERIFY(full);
        Generator b(*m, 64, 1);
        QVERIFY(b.start(prompt, settings));
        std::vector<TokenId> stepped;
        for (;;) {
            auto next = b.step();
            QVERIFY(next);
            if (!next->has_value())
                break;
            stepped.push_back(**next);
        }
        QCOMPARE(stepped, full->tokens);
        QCOMPARE(b.stopReason(), TurnEnd::TokenLimit);
        // A second run on the same generator starts from an empty cache and gives the same tokens.
        auto again = b.generate(prompt, settings);
        QVERIFY(again);
        QCOMPARE(again->tokens, full->tokens);
    }

    void seededSamplingIsReproducible()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        const std::vector<TokenId> prompt{1, 403, 407, 261, 378};
        GenerationSettings settings;
        settings.maxTokens = 40;
        settings.sampling.temperature = 1.0f;
        settings.sampling.topK = 40;
        settings.sampling.topP = 0.95f;
        settings.sampling.seed = 42;
        Generator gen(*m, 128, 1);
        auto a = gen.generate(prompt, settings);
        auto b = gen.generate(prompt, settings);
        QVERIFY(a && b);
        QCOMPARE(a->tokens, b->tokens);
        settings.sampling.seed = 43;
        auto c = gen.generate(prompt, settings);
        QVERIFY(c);
        QVERIFY(c->tokens != a->tokens);
    }

    void stopsOnEndOfGeneration()
    {
        // A synthetic model (it has no vocabulary inside) with a vocabulary whose EOS id is the token
        // greedy decoding picks third: the vocabulary says what ends generation.
        QTemporaryDir dir;
        ws::SyntheticModelSpec spec;
        const std::string plain = dir.filePath("plain.gguf").toStdString();
        QVERIFY(ws::writeSyntheticModel(plain, spec));
        auto m = DecodeModel::load(plain);
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        auto plainVocab = vocabulary(spec.vocabSize, ws::kNoToken);
        QVERIFY(plainVocab);
        QVERIFY(plainVocab->endOfGenerationIds().empty());
        Generator gen(*m, 64, 1);
        gen.setTokenizer(*plainVocab);
        GenerationSettings settings;
        settings.maxTokens = 8;
        auto free = gen.generate(std::vector<TokenId>{5, 6, 7}, settings);
        QVERIFY(free);
        QCOMPARE(free->tokens.size(), size_t(8));
        const TokenId third = free->tokens[2];
        const auto firstAt = std::find(free->tokens.begin(), free->tokens.end(), third) - free->tokens.begin();
        auto eosVocab = vocabulary(spec.vocabSize, third);
        QVERIFY(eosVocab);
        Generator gen2(*m, 64, 1);
        gen2.setTokenizer(*eosVocab);
        auto stopped = gen2.generate(std::vector<TokenId>{5, 6, 7}, settings);
        QVERIFY(stopped);
        QCOMPARE(stopped->reason, TurnEnd::EndOfGeneration);
        QCOMPARE(stopped->tokens, std::vector<TokenId>(free->tokens.begin(), free->tokens.begin() + firstAt));
    }

    void stopsOnStopString()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        const auto pieces = m->gguf()->getStringArray("tokenizer.ggml.tokens");
        QVERIFY(pieces);
        Generator gen(*m, 128, 1);
        gen.setPieceFunction([&](TokenId id) { return std::string((*pieces)[size_t(id)]); });
        GenerationSettings settings;
        settings.maxTokens = 64;
        settings.stopStrings = {"Lily"};
        auto r = gen.generate(std::vector<TokenId>{1, 403, 407, 261, 378}, settings);
        QVERIFY(r);
        QCOMPARE(r->reason, TurnEnd::StopString);
        // ", there was a little girl named Lily": " Lily" is the 10th generated token (id 317).
        QCOMPARE(r->tokens.size(), size_t(10));
        QCOMPARE(r->tokens.back(), TokenId(317));
    }

    void cancelsFromAnotherThread()
    {
        QTemporaryDir dir;
        ws::SyntheticModelSpec spec;
        spec.dim = 256;
        spec.hiddenDim = 512;
        spec.layerCount = 4;
        spec.contextLength = 4096;
        const std::string path = dir.filePath("slow.gguf").toStdString();
        QVERIFY(ws::writeSyntheticModel(path, spec));
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        Generator gen(*m, 4096, 1);
        GenerationSettings settings;
        settings.maxTokens = 4000;
        settings.stopAtEndOfGeneration = false;
        std::atomic<int> produced{0};
        std::thread canceller([&] {
            while (produced.load() < 5)
                std::this_thread::yield();
            gen.cancel();
        });
        auto r = gen.generate(std::vector<TokenId>{1}, settings, [&](TokenId) {
            ++produced;
            return true;
        });
        canceller.join();
        QVERIFY(r);
        QCOMPARE(r->reason, TurnEnd::Stopped);
        QVERIFY(r->tokens.size() >= 5);
        QVERIFY(r->tokens.size() < 4000);
    }

    void rejectsBadInput()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        Generator gen(*m, 64, 1);
        GenerationSettings settings;
        QVERIFY(!gen.generate(std::vector<TokenId>{}, settings));
        QCOMPARE(gen.generate(std::vector<TokenId>{1, 512}, settings).error().code, ws::ErrorCode::InvalidArgument);
        QVERIFY(!gen.generate(std::vector<TokenId>{1, -3}, settings));
        settings.sampling.topP = 0.0f;
        QVERIFY(!gen.generate(std::vector<TokenId>{1}, settings));
        settings.sampling.topP = 1.0f;
        settings.maxTokens = 5000; // beyond the model's 2048 context: stops when the context is full
        auto r = gen.generate(std::vector<TokenId>(2040, 1), settings);
        QVERIFY(r);
        QCOMPARE(r->reason, TurnEnd::ContextFull);
        QCOMPARE(r->tokens.size(), size_t(2048 - 2040 + 1));
    }

    // A chosen context below the trained one: the KV cache never grows past it, the prompt must fit it.
    void limitedContextCapsTheCache()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        Generator gen(*m, 1, 1);
        gen.limitContext(16);
        QCOMPARE(gen.maxContext(), 16);
        GenerationSettings settings;
        settings.maxTokens = 100;
        settings.stopAtEndOfGeneration = false;
        auto r = gen.generate(std::vector<TokenId>{1, 403, 407, 261, 378}, settings);
        QVERIFY(r);
        QCOMPARE(r->reason, TurnEnd::ContextFull);
        QCOMPARE(r->tokens.size(), size_t(16 - 5 + 1));
        QCOMPARE(gen.contextLength(), 16);
        QCOMPARE(gen.checkPromptLength(17).error().code, ws::ErrorCode::OutOfRange);
        gen.limitContext(1 << 30); // clamped to the trained context
        QCOMPARE(gen.maxContext(), m->config().contextLength);
    }

    // F16 keys and values against F32 on stories260K, greedy, 64 tokens: the same ids.
    void f16CacheGivesTheF32GreedyIds()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto m = DecodeModel::load(path);
        QVERIFY(m);
        GenerationSettings settings;
        settings.maxTokens = 64;
        settings.stopAtEndOfGeneration = false;
        const std::vector<TokenId> prompt{1, 403, 407, 261, 378}; // "Once upon a time"
        Generator f32(*m, 1, 1);
        Generator f16(*m, 1, 1);
        f16.setKvCacheType(ws::KvCacheType::F16);
        auto a = f32.generate(prompt, settings);
        auto b = f16.generate(prompt, settings);
        QVERIFY(a && b);
        QCOMPARE(a->tokens.size(), size_t(64));
        size_t same = 0;
        while (same < a->tokens.size() && same < b->tokens.size() && a->tokens[same] == b->tokens[same])
            ++same;
        qInfo("F16 KV cache: %zu of %zu greedy ids as with F32", same, a->tokens.size());
        QCOMPARE(b->tokens, a->tokens);
        // Half the memory per position.
        QCOMPARE(ws::kvCacheBytes(m->config(), 4096, ws::KvCacheType::F16) * 2,
                 ws::kvCacheBytes(m->config(), 4096, ws::KvCacheType::F32));
    }

    // The header read gives the loader's summary: architecture, parameters, tensor types, memory at a context.
    void summaryFromTheHeaderRead()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K-Q8_0.gguf");
        auto m = DecodeModel::load(path, ws::LoadBudget{256, ws::KvCacheType::F16});
        QVERIFY(m);
        const ws::ModelSummary& s = m->summary();
        QCOMPARE(s.architecture, std::string("llama"));
        uint64_t elements = 0, bytes = 0;
        for (const ws::GgufTensorInfo& t : m->gguf()->tensors()) {
            elements += t.elementCount();
            bytes += t.sizeBytes;
        }
        QCOMPARE(s.parameters, elements);
        QVERIFY(!s.types.empty());
        uint64_t typeBytes = 0;
        for (const ws::TensorTypeShare& t : s.types)
            typeBytes += t.bytes;
        QCOMPARE(typeBytes, bytes);
        QVERIFY(
            std::any_of(s.types.begin(), s.types.end(), [](const ws::TensorTypeShare& t) { return t.type == "Q8_0"; }));
        QCOMPARE(s.context, 256);
        // F16: 2 bytes per element of keys and values, every layer and position.
        const ws::TransformerConfig& c = m->config();
        QCOMPARE(s.kvCacheBytes, uint64_t(2) * c.layerCount * 256 * c.kvDim() * 2);
        QCOMPARE(s.neededBytes(), s.weightBytes + s.kvCacheBytes);
        QCOMPARE(s.weightBytes, uint64_t(std::filesystem::file_size(path)));
    }

    // A file that fits but whose KV cache at the chosen context does not is refused with the figures.
    void refusesAContextThatDoesNotFit()
    {
        const auto available = ws::availableMemoryBytes();
        WS_REQUIRE(available, QStringLiteral("MemAvailable in /proc/meminfo"));
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("longcontext.gguf")).toStdString();
        ws::SyntheticModelSpec spec;
        spec.contextLength = 1 << 24; // the most the loader accepts
        spec.dim = 256;
        spec.hiddenDim = 256;
        spec.layerCount = 32;
        spec.kvHeadCount = 4;
        QVERIFY(ws::writeSyntheticModel(path, spec));
        // 2 * 32 layers * 2^24 positions * 256 * 4 bytes: 1.1 TB of KV cache, an 8.4 MB file.
        const uint64_t mapsBefore = ws::MappedFile::mappingsMade();
        auto m = DecodeModel::load(path, ws::LoadBudget{1 << 24, ws::KvCacheType::F32});
        QVERIFY(!m);
        QCOMPARE(ws::MappedFile::mappingsMade(), mapsBefore); // decided from the header's plain reads
        const std::string message = m.error().message();
        QVERIFY2(m.error().code == ws::ErrorCode::OutOfRange, message.c_str());
        QVERIFY2(message.find("KV cache") != std::string::npos &&
                     message.find("16777216 tokens") != std::string::npos &&
                     message.find("available") != std::string::npos && message.find("llama") != std::string::npos,
                 message.c_str());
        QVERIFY(DecodeModel::load(path, ws::LoadBudget{4096, ws::KvCacheType::F32})); // the default context fits
        QCOMPARE(ws::MappedFile::mappingsMade(), mapsBefore + 1);
    }

    // A file larger than the memory available is refused, with both figures, before it is mapped.
    void refusesAFileLargerThanMemory()
    {
        const auto available = ws::availableMemoryBytes();
        WS_REQUIRE(available, QStringLiteral("MemAvailable in /proc/meminfo"));
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("huge.gguf")).toStdString();
        {
            std::ofstream f(path, std::ios::binary);
            f.write("GGUF\3\0\0\0", 8);
        }
        std::error_code ec;
        std::filesystem::resize_file(path, *available + (uint64_t(1) << 34), ec); // sparse: nothing is written
        if (ec)
            WS_SKIP(kSparseFile,
                    QString::fromStdString("this filesystem cannot hold a sparse file that large: " + ec.message()));
        const uint64_t mapsBefore = ws::MappedFile::mappingsMade();
        auto m = DecodeModel::load(path);
        QVERIFY(!m);
        QCOMPARE(ws::MappedFile::mappingsMade(), mapsBefore);
        const std::string message = m.error().message();
        QVERIFY2(message.find("needs") != std::string::npos && message.find("available") != std::string::npos,
                 message.c_str());
        const std::string needed = std::to_string(std::llround(double(*available + (uint64_t(1) << 34)) / 1e9));
        QVERIFY2(message.find(needed) != std::string::npos, message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGenerator)
#include "tst_generator.moc"
