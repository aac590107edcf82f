#pragma once
// The production SessionModel: a GGUF file or llama2.c checkpoint loaded by
// the decode engine (DecodeModel), its tokenizer, its chat template and one
// Generator (KV cache and thread pool) reused turn after turn. A turn's
// prompt is the whole conversation: through the chat template for instruct
// models, or as one running text for base models (completion), where the
// model continues what was written so far. The KV cache is kept from turn to
// turn: a turn evaluates only the prompt tokens after the prefix the cache
// already holds (the conversation so far), and its snapshot says how many it
// took from the cache. The request chooses the context, the KV cache type and
// what happens when the conversation outgrows the context (chatturn.h).
//
// This is the one place a model file becomes a runnable model: the chat,
// `waferscope-cli generate` and the recording's chat script all load it
// here and run turns through its token stream. A llama2.c checkpoint has no
// vocabulary inside; unless a tokenizer is named, it is looked for beside
// it: "tok<vocab size>.bin" (llama2.c's name, e.g. tok512.bin for
// stories260K), then "tokenizer.bin" (run.c's default).

#include "engine/decode/kvcachetype.h"
#include "engine/session/sessionmodel.h"

#include "engine/tokenizer/tokenid.h"

#include <memory>
#include <string>
#include <vector>

namespace ws {

class DecodeModel;
class Generator;
class Tokenizer;
class ChatTemplate;

class GeneratorSessionModel : public SessionModel
{
public:
    struct Options
    {
        int threads = 0;           // <= 0: all cores
        std::string tokenizerPath; // llama2.c only; empty: look beside the model
        // Context (prompt + reply tokens) a conversation may use, at most the model's trained context;
        // the KV cache grows with the conversation up to it (llama.cpp's default context is 4096).
        int contextLength = 4096;
        // F32 as the llama.cpp reference tests run; the chat chooses (llama.cpp's default is F16).
        KvCacheType kvCacheType = KvCacheType::F32;
        bool mapWeights = false; // LoadBudget::mapWeights
    };

    static Expected<std::unique_ptr<GeneratorSessionModel>> load(const std::string& path, const Options& options);
    static Expected<std::unique_ptr<GeneratorSessionModel>> load(const std::string& path)
    {
        return load(path, Options{});
    }
    ~GeneratorSessionModel() override;

    const SessionModelInfo& info() const override { return m_info; }
    Expected<std::unique_ptr<TokenStream>> startTurn(const TurnRequest& request) override;

    // The prompt text a turn would use (for tests and the CLI).
    Expected<std::string> promptText(const TurnRequest& request) const;
    // The prompt's token ids (BOS first when the vocabulary adds one); errors
    // for an empty prompt or one longer than the context.
    Expected<std::vector<TokenId>> promptTokens(const TurnRequest& request) const;
    // The request as it will run: with ContextFullPolicy::DropOldest, the oldest turns left out until
    // the prompt and the token limit fit the request's context (`dropped` messages); the prompt's ids.
    Expected<std::vector<TokenId>> fitToContext(TurnRequest& request, int& dropped) const;
    const Tokenizer& tokenizer() const { return *m_tokenizer; }
    int threadCount() const;
    const DecodeModel& model() const { return *m_model; }

private:
    GeneratorSessionModel();
    bool isChat(const TurnRequest& request) const;
    Expected<std::vector<TokenId>> encodePrompt(const TurnRequest& request) const;
    int contextFor(const TurnRequest& request) const;

    std::unique_ptr<DecodeModel> m_model; // stable address: the generator refers to it
    std::unique_ptr<Tokenizer> m_tokenizer;
    std::unique_ptr<ChatTemplate> m_template;
    std::unique_ptr<Generator> m_generator;
    SessionModelInfo m_info;
    Options m_options;
};

} // namespace ws
