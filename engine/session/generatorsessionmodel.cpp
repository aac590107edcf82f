#include "engine/session/generatorsessionmodel.h"

#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/tokenizer/chattemplate.h"
#include "engine/tokenizer/streamingdecoder.h"
#include "engine/tokenizer/tokenizer.h"

#include <cctype>
#include <filesystem>

namespace ws {

namespace {

const char* roleName(ChatRole role)
{
    switch (role) {
    case ChatRole::System:
        return "system";
    case ChatRole::User:
        return "user";
    case ChatRole::Assistant:
        return "assistant";
    }
    return "user";
}

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// One running text for a base model: the messages in order, a space put
// between two parts only where neither side has whitespace already (so the
// model's continuation follows the prompt exactly, as in llama.cpp).
std::string completionText(const std::vector<TurnMessage>& messages)
{
    std::string text;
    for (const TurnMessage& m : messages) {
        if (m.role == ChatRole::System || m.content.empty())
            continue;
        if (!text.empty() && m.role == ChatRole::User && !isSpace(text.back()) && !isSpace(m.content.front()))
            text += ' ';
        text += m.content;
    }
    return text;
}

Expected<std::string> findLlama2cTokenizer(const std::string& modelPath, int vocabSize)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(modelPath).parent_path();
    for (const std::string& name : {std::string("tokenizer.bin"), "tok" + std::to_string(vocabSize) + ".bin"}) {
        std::error_code ec;
        if (fs::is_regular_file(dir / name, ec))
            return (dir / name).string();
    }
    Error e = makeError(ErrorCode::NotFound,
                        "a llama2.c checkpoint needs its tokenizer beside it (tokenizer.bin or tok" +
                            std::to_string(vocabSize) + ".bin)");
    e.file = modelPath;
    return e;
}

ModelConfig modelConfigFrom(const DecodeModel& model, const std::string& name)
{
    const TransformerConfig& c = model.config();
    ModelConfig m;
    m.id = name;
    m.name = name;
    m.architecture = c.architecture;
    m.layers = c.layerCount;
    m.hiddenSize = c.dim;
    m.ffnSize = c.hiddenDim;
    m.headCount = c.headCount;
    m.kvHeadCount = c.kvHeadCount;
    m.headDim = c.headDim;
    m.vocabSize = c.vocabSize;
    m.tiedEmbeddings = model.weights().tiedOutput;
    m.attentionBias = c.qkvBias;
    m.qkNorm = c.qkNorm;
    m.contextLength = c.contextLength;
    m.ropeTheta = c.ropeTheta;
    m.rmsNormEps = c.rmsNormEps;
    m.sources["*"] = "read from " + model.path();
    return m;
}

class GeneratorStream : public TokenStream
{
public:
    GeneratorStream(Generator& generator, const Tokenizer& tokenizer, std::vector<TokenId> prompt,
                    GenerationSettings settings)
        : m_generator(generator), m_decoder(tokenizer), m_prompt(std::move(prompt)), m_settings(std::move(settings))
    {
    }

    int promptTokenCount() const override { return int(m_prompt.size()); }
    int remainingContext() const override
    {
        return m_generator.contextLength() - int(m_prompt.size()) - m_produced;
    }

    Expected<TokenStep> next() override
    {
        if (!m_started) {
            m_started = true;
            if (Status s = m_generator.start(m_prompt, m_settings); !s)
                return s.error();
        }
        Expected<std::optional<TokenId>> token = m_generator.step();
        if (!token)
            return token.error();
        if (!*token) {
            // Stopped: end of generation, or cancelled / full.
            TokenStep end;
            end.endOfText = true;
            end.text = m_decoder.flush();
            if (m_generator.stopReason() == StopReason::Cancelled)
                return makeError(ErrorCode::Cancelled, "cancelled");
            return end;
        }
        ++m_produced;
        TokenStep step;
        step.token = **token;
        step.text = m_decoder.push(step.token);
        return step;
    }

private:
    Generator& m_generator;
    StreamingDecoder m_decoder;
    std::vector<TokenId> m_prompt;
    GenerationSettings m_settings;
    bool m_started = false;
    int m_produced = 0;
};

} // namespace

GeneratorSessionModel::GeneratorSessionModel() = default;
GeneratorSessionModel::~GeneratorSessionModel() = default;

Expected<std::unique_ptr<GeneratorSessionModel>> GeneratorSessionModel::load(const std::string& path,
                                                                             const Options& options)
{
    Expected<DecodeModel> model = DecodeModel::load(path);
    if (!model)
        return model.error();
    std::unique_ptr<GeneratorSessionModel> session(new GeneratorSessionModel);
    session->m_model = std::make_unique<DecodeModel>(std::move(*model));
    const DecodeModel& m = *session->m_model;

    Expected<Tokenizer> tokenizer = [&]() -> Expected<Tokenizer> {
        if (m.gguf())
            return Tokenizer::fromGguf(*m.gguf());
        std::string tokPath = options.tokenizerPath;
        if (tokPath.empty()) {
            Expected<std::string> found = findLlama2cTokenizer(path, m.config().vocabSize);
            if (!found)
                return found.error();
            tokPath = *found;
        }
        return Tokenizer::fromLlama2cFile(tokPath, m.config().vocabSize);
    }();
    if (!tokenizer)
        return tokenizer.error();
    session->m_tokenizer = std::make_unique<Tokenizer>(std::move(*tokenizer));
    session->m_template = std::make_unique<ChatTemplate>(ChatTemplate::forTokenizer(*session->m_tokenizer));
    session->m_generator = std::make_unique<Generator>(m, m.config().contextLength, options.threads);

    SessionModelInfo& info = session->m_info;
    info.filePath = path;
    std::string name = std::filesystem::path(path).stem().string();
    if (m.gguf()) {
        if (Expected<std::string_view> general = m.gguf()->getString("general.name"); general && !general->empty())
            name = std::string(*general);
    }
    info.displayName = name;
    info.config = modelConfigFrom(m, name);
    info.hasChatTemplate = session->m_template->isChat();
    info.templateName = info.hasChatTemplate ? ChatTemplate::kindName(session->m_template->kind()) : "";
    std::error_code ec;
    info.fileBytes = int64_t(std::filesystem::file_size(path, ec));
    return session;
}

Expected<std::string> GeneratorSessionModel::promptText(const TurnRequest& request) const
{
    if (request.messages.empty() || request.messages.back().role != ChatRole::User)
        return makeError(ErrorCode::InvalidArgument, "the conversation must end with a user message");
    const bool chat = request.mode == PromptMode::Chat ||
                      (request.mode == PromptMode::Auto && m_template->isChat());
    if (!chat)
        return completionText(request.messages);
    if (!m_template->isChat())
        return makeError(ErrorCode::InvalidArgument,
                         "this model has no chat template; use completion mode", "mode");
    std::vector<ChatMessage> messages;
    for (const TurnMessage& m : request.messages)
        messages.push_back({roleName(m.role), m.content});
    return m_template->apply(messages, true);
}

Expected<std::unique_ptr<TokenStream>> GeneratorSessionModel::startTurn(const TurnRequest& request)
{
    Expected<std::string> text = promptText(request);
    if (!text)
        return text.error();
    const bool chat = request.mode == PromptMode::Chat ||
                      (request.mode == PromptMode::Auto && m_template->isChat());
    // Chat markup must become control tokens; plain text must not.
    std::vector<TokenId> prompt = m_tokenizer->encode(*text, true, chat);
    if (prompt.empty())
        return makeError(ErrorCode::InvalidArgument, "the prompt is empty");
    if (int(prompt.size()) >= m_model->config().contextLength)
        return makeError(ErrorCode::OutOfRange, "the conversation has " + std::to_string(prompt.size()) +
                                                    " tokens, more than the model's context of " +
                                                    std::to_string(m_model->config().contextLength) +
                                                    "; clear the chat");
    if (request.maxTokens < 1)
        return makeError(ErrorCode::InvalidArgument, "the token limit must be at least 1", "max_tokens");
    GenerationSettings settings;
    settings.maxTokens = request.maxTokens;
    settings.sampling.temperature = request.sampling.temperature;
    settings.sampling.topK = request.sampling.topK;
    settings.sampling.topP = request.sampling.topP;
    settings.sampling.seed = request.sampling.seed;
    if (Status valid = settings.sampling.validate(); !valid)
        return valid.error();
    return std::unique_ptr<TokenStream>(
        new GeneratorStream(*m_generator, *m_tokenizer, std::move(prompt), std::move(settings)));
}

} // namespace ws
