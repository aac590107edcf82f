// GeneratorSessionModel on the real test models: prompt building (chat
// template for instruct models, running text for base models), errors, and
// token streams that reproduce llama.cpp's greedy ids.
#include "engine/model/modelfileimporter.h"
#include "engine/session/generatorsessionmodel.h"
#include "tests/common/testmodels.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

ws::TurnRequest turn(std::vector<ws::TurnMessage> messages, ws::PromptMode mode = ws::PromptMode::Auto)
{
    ws::TurnRequest r;
    r.messages = std::move(messages);
    r.mode = mode;
    return r;
}

std::unique_ptr<ws::GeneratorSessionModel> load(const std::string& path)
{
    ws::GeneratorSessionModel::Options options;
    options.threads = 1;
    auto model = ws::GeneratorSessionModel::load(path, options);
    if (!model)
        qWarning("%s", model.error().message().c_str());
    return model ? std::move(*model) : nullptr;
}

} // namespace

class TestGeneratorSessionModel : public QObject
{
    Q_OBJECT
private slots:
    void chatTemplateForInstructModels()
    {
        WS_REQUIRE_MODEL(path, "random/qwen2-tiny-random.gguf");
        auto model = load(path);
        QVERIFY(model);
        QVERIFY(model->info().hasChatTemplate);
        QCOMPARE(model->info().templateName, std::string("chatml"));
        QCOMPARE(model->info().config.architecture, std::string("qwen2"));
        QVERIFY(model->info().config.attentionBias);
        const auto text = model->promptText(turn({{ws::ChatRole::System, "Be brief."},
                                                  {ws::ChatRole::User, "Hi"},
                                                  {ws::ChatRole::Assistant, "Hello!"},
                                                  {ws::ChatRole::User, "Who are you?"}}));
        QVERIFY(text);
        QCOMPARE(*text, std::string("<|im_start|>system\nBe brief.<|im_end|>\n"
                                    "<|im_start|>user\nHi<|im_end|>\n"
                                    "<|im_start|>assistant\nHello!<|im_end|>\n"
                                    "<|im_start|>user\nWho are you?<|im_end|>\n"
                                    "<|im_start|>assistant\n"));
        // The markers become control tokens: <|im_start|> is one token.
        auto stream = model->startTurn(turn({{ws::ChatRole::User, "Hi"}}));
        QVERIFY(stream);
        QVERIFY((*stream)->promptTokenCount() < 12);
    }

    void runningTextForBaseModels_data()
    {
        QTest::addColumn<QString>("second");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a space where the texts touch") << "Then it rained."
                                                       << "Once upon a time, there was Then it rained.";
        QTest::newRow("no extra space after whitespace") << " Then it rained."
                                                         << "Once upon a time, there was Then it rained.";
    }
    void runningTextForBaseModels()
    {
        QFETCH(QString, second);
        QFETCH(QString, expected);
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto model = load(path);
        QVERIFY(model);
        QVERIFY(!model->info().hasChatTemplate);
        const auto text = model->promptText(turn({{ws::ChatRole::System, "ignored by base models"},
                                                  {ws::ChatRole::User, "Once upon a time"},
                                                  {ws::ChatRole::Assistant, ", there was"},
                                                  {ws::ChatRole::User, second.toStdString()}}));
        QVERIFY(text);
        QCOMPARE(QString::fromStdString(*text), expected);
    }

    void badRequests_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("endsWithUser");
        QTest::addColumn<int>("maxTokens");
        QTest::addColumn<float>("temperature");
        QTest::newRow("chat mode without a template") << int(ws::PromptMode::Chat) << true << 10 << 0.0f;
        QTest::newRow("conversation not ending with the user") << int(ws::PromptMode::Auto) << false << 10 << 0.0f;
        QTest::newRow("no tokens asked") << int(ws::PromptMode::Auto) << true << 0 << 0.0f;
        QTest::newRow("negative temperature") << int(ws::PromptMode::Auto) << true << 10 << -1.0f;
    }
    void badRequests()
    {
        QFETCH(int, mode);
        QFETCH(bool, endsWithUser);
        QFETCH(int, maxTokens);
        QFETCH(float, temperature);
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto model = load(path);
        QVERIFY(model);
        std::vector<ws::TurnMessage> messages = {{ws::ChatRole::User, "Once upon a time"}};
        if (!endsWithUser)
            messages.push_back({ws::ChatRole::Assistant, ", there"});
        ws::TurnRequest request = turn(messages, ws::PromptMode(mode));
        request.maxTokens = maxTokens;
        request.sampling.temperature = temperature;
        auto stream = model->startTurn(request);
        QVERIFY(!stream);
        QVERIFY(!stream.error().text.empty());
    }

    // The session's architecture is the one the placement imports from the same file (the same
    // header read and defaults); the llama2.c checkpoint gives the shape of its GGUF conversion
    // (shared/models/README.md: dim 64, hidden_dim 172, 5 layers, 8 heads, 4 KV heads, vocab 512).
    void modelConfigIsTheImportersOwn_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<int>("context");
        QTest::newRow("gguf: its context_length") << "stories260K/stories260K.gguf" << false << 2048;
        QTest::newRow("llama2.c checkpoint: seq_len") << "stories260K/stories260K.bin" << true << 512;
    }
    void modelConfigIsTheImportersOwn()
    {
        QFETCH(QString, file);
        QFETCH(bool, tied);
        QFETCH(int, context);
        const QString full = wstest::testModelPath(file);
        WS_REQUIRE_MODEL_FILE(full);
        auto model = load(full.toStdString());
        QVERIFY(model);
        const ws::ModelConfig& c = model->info().config;
        auto imported = ws::importModelFile(full.toStdString());
        QVERIFY2(imported, imported ? "" : imported.error().message().c_str());
        QCOMPARE(c.id, imported->id);
        QCOMPARE(c.architecture, std::string("llama"));
        QCOMPARE(c.layers, 5);
        QCOMPARE(c.hiddenSize, 64);
        QCOMPARE(c.ffnSize, 172);
        QCOMPARE(c.headCount, 8);
        QCOMPARE(c.kvHeadCount, 4);
        QCOMPARE(c.headDim, 8);
        QCOMPARE(c.vocabSize, 512);
        QCOMPARE(c.contextLength, int64_t(context));
        QCOMPARE(c.tiedEmbeddings, tied);
        QCOMPARE(c.rmsNormEps, double(1e-5f));
        QCOMPARE(c.ropeTheta, 10000.0);
        QCOMPARE(c.nativePrecision, ws::Precision::Fp32);
        for (const auto* other : {&imported->layers, &imported->hiddenSize, &imported->ffnSize, &imported->headCount,
                                  &imported->kvHeadCount, &imported->headDim, &imported->vocabSize})
            QVERIFY(*other > 0);
        QCOMPARE(imported->layers, c.layers);
        QCOMPARE(imported->ffnSize, c.ffnSize);
        QCOMPARE(imported->vocabSize, c.vocabSize);
        QCOMPARE(imported->rmsNormEps, c.rmsNormEps);
        QCOMPARE(imported->tiedEmbeddings, c.tiedEmbeddings);
    }

    void missingFileIsAnError()
    {
        auto model = ws::GeneratorSessionModel::load("/nonexistent/model.gguf");
        QVERIFY(!model);
        QCOMPARE(model.error().code, ws::ErrorCode::NotFound);
    }

    // qwen2 random model, completion mode: the stream's ids are llama.cpp's
    // greedy ids, and its UTF-8-safe pieces join to llama.cpp's text.
    void streamMatchesLlamaCpp()
    {
        WS_REQUIRE_MODEL(path, "random/qwen2-tiny-random.gguf");
        WS_REQUIRE_MODEL(refPath, "random/random.reference.json");
        QFile file(refPath_q);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject ref =
            QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("models")).toArray().at(0).toObject();
        QCOMPARE(ref.value(QStringLiteral("model")).toString(), QStringLiteral("qwen2-tiny-random.gguf"));
        const QJsonObject result = ref.value(QStringLiteral("results")).toArray().at(0).toObject();
        const QJsonArray ids = result.value(QStringLiteral("generated_ids")).toArray();

        auto model = load(path);
        QVERIFY(model);
        ws::TurnRequest request =
            turn({{ws::ChatRole::User, result.value(QStringLiteral("prompt")).toString().toStdString()}},
                 ws::PromptMode::Completion);
        request.maxTokens = int(ids.size());
        auto stream = model->startTurn(request);
        QVERIFY(stream);
        QCOMPARE((*stream)->promptTokenCount(), result.value(QStringLiteral("prompt_ids")).toArray().size());
        std::string text;
        for (int i = 0; i < ids.size(); ++i) {
            auto step = (*stream)->next();
            QVERIFY2(step, step ? "" : step.error().message().c_str());
            QVERIFY(!step->endOfText);
            QCOMPARE(step->token, ids.at(i).toInt());
            text += step->text;
        }
        QCOMPARE(QString::fromStdString(text), result.value(QStringLiteral("generated_text")).toString());
    }
};

QTEST_GUILESS_MAIN(TestGeneratorSessionModel)
#include "tst_generatorsessionmodel.moc"
