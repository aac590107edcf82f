#include "engine/tokenizer/chattemplate.h"
#include "tests/common/testmodels.h"
#include "tests/engine/tokenizer/tokenizerloader.h"

#include <QTest>

using namespace ws;

namespace {

const std::vector<ChatMessage> kConversation = {
    {"system", "You are terse."},
    {"user", "  Hi there \n"},
};

} // namespace

class TestChatTemplate : public QObject
{
    Q_OBJECT
private slots:
    void detectsFromModel_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("kind");
        QTest::newRow("Qwen3 template is ChatML") << "tokenizer/ggml-vocab-qwen3.gguf"
                                                  << "chatml";
        QTest::newRow("Llama 3 template") << "tokenizer/ggml-vocab-llama3.gguf"
                                          << "llama3";
        QTest::newRow("qwen2 random model (copied template)") << "random/qwen2-tiny-random.gguf"
                                                              << "chatml";
        QTest::newRow("stories260K has none: plain") << "stories260K/stories260K.gguf"
                                                     << "plain";
        QTest::newRow("Llama 2 vocabulary has none: plain") << "tokenizer/ggml-vocab-llama-spm.gguf"
                                                            << "plain";
    }
    void detectsFromModel()
    {
        QFETCH(QString, model);
        QFETCH(QString, kind);
        const QString path = wstest::testModelPath(model);
        WS_REQUIRE_MODEL_FILE(path);
        const auto tok = wstest::loadTokenizer(path.toStdString());
        QVERIFY(tok);
        QCOMPARE(QString::fromLatin1(ChatTemplate::kindName(ChatTemplate::forTokenizer(*tok).kind())), kind);
    }

    void detectsFromArchitectureWithoutTemplate()
    {
        QCOMPARE(ChatTemplate::detect("", "qwen3").kind(), ChatTemplate::Kind::ChatMl);
        QCOMPARE(ChatTemplate::detect("", "llama").kind(), ChatTemplate::Kind::Plain);
        QCOMPARE(ChatTemplate::detect("{{ messages }}", "qwen2").kind(), ChatTemplate::Kind::Plain);
    }

    // The exact text of llama.cpp's built-in templates.
    // gpt-oss's harmony template (an excerpt of its markup) is not rendered: the model falls back to completion
    // and the chat names the template; ChatML and Llama 3 texts render, an empty text has nothing to name.
    void namesTemplatesItCannotRender()
    {
        const std::string harmony = "{{- '<|start|>system<|message|>' }}{{- '<|end|>' }}"
                                    "{%- if add_generation_prompt %}<|start|>assistant{%- endif %}";
        QCOMPARE(ChatTemplate::detect(harmony, "gpt-oss").kind(), ChatTemplate::Kind::Plain);
        QCOMPARE(ChatTemplate::unrenderedName(harmony), std::string("harmony"));
        QCOMPARE(ChatTemplate::unrenderedName("{{ messages }}"), std::string("unrecognised"));
        QCOMPARE(ChatTemplate::unrenderedName("<|im_start|>{{ role }}"), std::string());
        QCOMPARE(ChatTemplate::unrenderedName(""), std::string());
    }

    void appliesChatMl()
    {
        const ChatTemplate t(ChatTemplate::Kind::ChatMl);
        QCOMPARE(t.apply(kConversation, true), std::string("<|im_start|>system\nYou are terse.<|im_end|>\n"
                                                           "<|im_start|>user\n  Hi there \n<|im_end|>\n"
                                                           "<|im_start|>assistant\n"));
        QCOMPARE(t.apply({{"user", "x"}}, false), std::string("<|im_start|>user\nx<|im_end|>\n"));
    }
    void appliesLlama3()
    {
        const ChatTemplate t(ChatTemplate::Kind::Llama3);
        QCOMPARE(t.apply(kConversation, true),
                 std::string("<|start_header_id|>system<|end_header_id|>\n\nYou are terse.<|eot_id|>"
                             "<|start_header_id|>user<|end_header_id|>\n\nHi there<|eot_id|>"
                             "<|start_header_id|>assistant<|end_header_id|>\n\n"));
    }
    void appliesPlain()
    {
        const ChatTemplate t;
        QCOMPARE(t.apply({{"user", "Once upon a time"}}, true), std::string("Once upon a time"));
        QCOMPARE(t.apply(kConversation, false), std::string("You are terse.\n  Hi there \n"));
    }

    // The template's markers become single control tokens when encoded with parseSpecial.
    void encodesMarkersAsControlTokens()
    {
        WS_REQUIRE_MODEL(path, "tokenizer/ggml-vocab-llama3.gguf");
        const auto tok = wstest::loadTokenizer(path);
        QVERIFY(tok);
        const std::string prompt = ChatTemplate::forTokenizer(*tok).apply({{"user", "Hi"}}, true);
        const auto ids = tok->encode(prompt, true, true);
        QVERIFY(ids.size() >= 8);
        QCOMPARE(ids[0], 128000);                                 // BOS from the tokenizer
        QCOMPARE(ids[1], 128006);                                 // <|start_header_id|>
        QCOMPARE(ids[3], 128007);                                 // <|end_header_id|>
        QCOMPARE(std::count(ids.begin(), ids.end(), 128009), 1L); // <|eot_id|>
        QCOMPARE(ids[ids.size() - 4], 128006);                    // assistant header ...
        QCOMPARE(ids[ids.size() - 2], 128007);
        QCOMPARE(tok->decode({ids.back()}), std::string("\n\n"));
    }
};

QTEST_GUILESS_MAIN(TestChatTemplate)
#include "tst_chattemplate.moc"
