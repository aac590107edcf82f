#include "engine/session/generatorsessionmodel.h"

#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/gguf/mappedfile.h"
#include "engine/tokenizer/chattemplate.h"
#include "engine/tokenizer/streamingdecoder.h"
#include "engine/tokenizer/tokenizer.h"

#include <algorithm>
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

// llama2.c keeps no vocabulary in the checkpoint; its tokenizer lies beside it.
// tok<vocab>.bin first: its name says it is for this vocabulary size (llama2.c's
// tok512.bin for stories260K); then run.c's default name, tokenizer.bin.
Expected<std::string> findLlama2cTokenizer(const std::string& modelPath, int vocabSize)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(modelPath).parent_path();
    const std::string sized = "tok" + std::to_string(vocabSize) + ".bin";
    for (const std::string& name : {sized, std::string("tokenizer.bin")}) {
        std::error_code ec;
        if (fs::is_regular_file(dir / name, ec))
            return (dir / name).string();
    }
    Error e = makeError(ErrorCode::NotFound, "a llama2.c checkpoint needs its tokenizer beside it (" + sized +
                                                 " or tokenizer.bin) or its path");
    e.file = modelPath;
    return e;
}

class GeneratorStream : public TokenStream
{
public:
    GeneratorStream(Generator& generator, const MappedFile* file, const Tokenizer& tokenizer,
                    std::vector<TokenId> prompt, GenerationSettings settings, int droppedMessages)
        : m_generator(generator), m_file(file), m_decoder(tokenizer), m_prompt(std::move(prompt)),
          m_settings(std::move(settings)), m_dropped(droppedMessages)
    {
    }

    int promptTokenCount() const override { return int(m_prompt.size()); }
    int reusedPromptTokenCount() const override { return m_started ? m_generator.reusedPromptTokens() : 0; }
    int droppedMessageCount() const override { return m_dropped; }
    int contextTokenCount() const override { return m_generator.maxContext(); }
    void setPromptProgress(PromptProgress progress) override { m_progress = std::move(progress); }

    Expected<TokenStep> next() override
    {
        if (!m_started) {
            m_started = true;
            m_generator.setPromptProgress(m_progress);
            Status s = m_generator.start(m_prompt, m_settings);
            m_generator.setPromptProgress({}); // the generator outlives this stream's callback
            if (!s)
                return s.error();
        }
        Expected<std::optional<TokenId>> token = m_generator.step();
        if (!token)
            return token.error();
        // A step over a file truncated on disk read zero pages (mappedfile.h): its token is not shown.
        if (m_file) {
            if (Status intact = m_file->checkIntact(); !intact)
                return intact.error();
        }
        if (!*token) {
            // Stopped: the generator says why.
            TokenStep end;
            end.endOfText = true;
            end.text = m_decoder.flush();
            const TurnEnd reason = m_generator.stopReason();
            if (reason == TurnEnd::Stopped)
                return makeError(ErrorCode::Cancelled, "cancelled");
            // None is not a reason the generator stops with; as before, the text ended.
            end.end = reason == TurnEnd::None ? TurnEnd::EndOfGeneration : reason;
            return end;
        }
        TokenStep step;
        step.token = **token;
        step.text = m_decoder.push(step.token);
        if (m_generator.model().config().isMoe())
            step.routing = std::make_shared<const ExpertRouting>(m_generator.routing());
        return step;
    }

private:
    Generator& m_generator;
    const MappedFile* m_file; // the weights' mapping (null for a synthetic model)
    StreamingDecoder m_decoder;
    std::vector<TokenId> m_prompt;
    GenerationSettings m_settings;
    int m_dropped = 0;
    bool m_started = false;
    PromptProgress m_progress;
};

} // namespace

GeneratorSessionModel::GeneratorSessionModel() = default;
GeneratorSessionModel::~GeneratorSessionModel() = default;

Expected<std::unique_ptr<GeneratorSessionModel>> GeneratorSessionModel::load(const std::string& path,
                                                                             const Options& options)
{
    Expected<DecodeModel> model =
        DecodeModel::load(path, LoadBudget{options.contextLength, options.kvCacheType, options.mapWeights});
    if (!model)
        return model.error();
    std::unique_ptr<GeneratorSessionModel> session(new GeneratorSessionModel);
    session->m_options = options;
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
    // The KV cache starts at one position and grows to what each turn needs (prompt + token limit, at
    // most the chosen context), so a long-context model does not reserve its whole context up front.
    session->m_generator = std::make_unique<Generator>(m, 1, options.threads);
    session->m_generator->limitContext(options.contextLength);
    session->m_generator->setKvCacheType(options.kvCacheType);
    session->m_generator->setTokenizer(*session->m_tokenizer);

    SessionModelInfo& info = session->m_info;
    info.filePath = path;
    info.config = m.modelConfig();       // from the header read that loaded the weights
    info.displayName = info.config.name; // importedModelName: the name every view shows
    info.hasChatTemplate = session->m_template->isChat();
    info.templateName = info.hasChatTemplate ? ChatTemplate::kindName(session->m_template->kind()) : "";
    info.unrenderedTemplate = ChatTemplate::unrenderedName(session->m_tokenizer->vocab().chatTemplate);
    std::error_code ec;
    info.fileBytes = int64_t(std::filesystem::file_size(path, ec));
    info.summary = m.summary();
    return session;
}

Expected<std::string> GeneratorSessionModel::promptText(const TurnRequest& request) const
{
    if (request.messages.empty() || request.messages.back().role != ChatRole::User)
        return makeError(ErrorCode::InvalidArgument, "the conversation must end with a user message");
    if (!isChat(request))
        return completionText(request.messages);
    if (!m_template->isChat())
        return makeError(ErrorCode::InvalidArgument, "this model has no chat template; use completion mode", "mode");
    std::vector<ChatMessage> messages;
    for (const TurnMessage& m : request.messages)
        messages.push_back({roleName(m.role), m.content});
    return m_template->apply(messages, true);
}

bool GeneratorSessionModel::isChat(const TurnRequest& request) const
{
    return request.mode == PromptMode::Chat || (request.mode == PromptMode::Auto && m_template->isChat());
}

Expected<std::vector<TokenId>> GeneratorSessionModel::encodePrompt(const TurnRequest& request) const
{
    Expected<std::string> text = promptText(request);
    if (!text)
        return text.error();
    // Chat markup must become control tokens; plain text must not.
    std::vector<TokenId> prompt = m_tokenizer->encode(*text, true, isChat(request));
    if (prompt.empty())
        return makeError(ErrorCode::InvalidArgument, "the prompt is empty and the model adds no BOS token");
    return prompt;
}

int GeneratorSessionModel::contextFor(const TurnRequest& request) const
{
    const int trained = std::max(1, m_model->config().contextLength);
    return std::clamp(request.contextLength > 0 ? request.contextLength : m_options.contextLength, 1, trained);
}

Expected<std::vector<TokenId>> GeneratorSessionModel::promptTokens(const TurnRequest& request) const
{
    Expected<std::vector<TokenId>> prompt = encodePrompt(request);
    if (prompt && prompt->size() > size_t(contextFor(request)))
        return makeError(ErrorCode::OutOfRange, "the prompt has " + std::to_string(prompt->size()) +
                                                    " tokens, more than the context of " +
                                                    std::to_string(contextFor(request)));
    return prompt;
}

Expected<std::vector<TokenId>> GeneratorSessionModel::fitToContext(TurnRequest& request, int& dropped) const
{
    dropped = 0;
    const int64_t context = contextFor(request);
    for (;;) {
        Expected<std::vector<TokenId>> prompt = encodePrompt(request);
        if (!prompt || request.contextFull != ContextFullPolicy::DropOldest ||
            int64_t(prompt->size()) + request.maxTokens <= context)
            break;
        // The oldest turn after the system prompt: its user message and the replies to it.
        auto& m = request.messages;
        auto first = std::find_if(m.begin(), m.end(), [](const TurnMessage& t) { return t.role != ChatRole::System; });
        if (first == m.end() || first + 1 == m.end())
            break; // only the message to answer is left
        auto end = first + 1;
        while (end + 1 != m.end() && end->role != ChatRole::User)
            ++end;
        dropped += int(end - first);
        m.erase(first, end);
    }
    return promptTokens(request);
}

int GeneratorSessionModel::threadCount() const
{
    return m_generator->threadCount();
}

Expected<std::unique_ptr<TokenStream>> GeneratorSessionModel::startTurn(const TurnRequest& original)
{
    TurnRequest request = original;
    int dropped = 0;
    Expected<std::vector<TokenId>> prompt = fitToContext(request, dropped);
    if (!prompt)
        return prompt.error();
    if (request.maxTokens < 1)
        return makeError(ErrorCode::InvalidArgument, "the token limit must be at least 1", "max_tokens");
    GenerationSettings settings;
    settings.maxTokens = request.maxTokens;
    settings.sampling = request.sampling;
    if (Status valid = settings.sampling.validate(); !valid)
        return valid.error();
    m_generator->limitContext(contextFor(request));
    m_generator->setKvCacheType(request.kvCache.value_or(m_options.kvCacheType));
    return std::unique_ptr<TokenStream>(new GeneratorStream(*m_generator, m_model->weights().mapping.get(),
                                                            *m_tokenizer, std::move(*prompt), std::move(settings),
                                                            dropped));
}

} // namespace ws
