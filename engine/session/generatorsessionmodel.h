#pragma once
// The production SessionModel: a GGUF file or llama2.c checkpoint loaded by
// the decode engine (DecodeModel), its tokenizer, its chat template and one
// Generator (KV cache and thread pool) reused turn after turn. A turn's
// prompt is the whole conversation: through the chat template for instruct
// models, or as one running text for base models (completion), where the
// model continues what was written so far. Each turn re-evaluates the prompt
// (no KV reuse across turns).
//
// A llama2.c checkpoint has no vocabulary inside; its tokenizer is looked
// for beside it: "tokenizer.bin", then "tok<vocab size>.bin" (llama2.c's
// names, e.g. tok512.bin for stories260K).

#include "engine/session/sessionmodel.h"

#include <memory>
#include <string>

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
        int threads = 0;              // <= 0: all cores
        std::string tokenizerPath;    // llama2.c only; empty: look beside the model
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
    const Tokenizer& tokenizer() const { return *m_tokenizer; }

private:
    GeneratorSessionModel();

    std::unique_ptr<DecodeModel> m_model; // stable address: the generator refers to it
    std::unique_ptr<Tokenizer> m_tokenizer;
    std::unique_ptr<ChatTemplate> m_template;
    std::unique_ptr<Generator> m_generator;
    SessionModelInfo m_info;
};

} // namespace ws
