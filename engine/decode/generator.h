#pragma once
// The generation loop: runs the prompt through the forward pass in batches,
// then alternates sampling and a one-token forward step until end of
// generation (an EOS/EOT id), a stop string, the token limit, a full context
// or cancellation. It owns the run state (KV cache sized to the context it
// is asked for) and the thread pool; the model is shared read-only.
//
// End of generation is the vocabulary's: the tokenizer given with
// setTokenizer() says which ids end it (Tokenizer::isEndOfGeneration, as
// llama.cpp's llama_vocab_is_eog); without one no token does. The prompt
// length, the token limit and the context are checked here and nowhere else.
//
// The KV cache is kept from one start() to the next: a prompt that begins
// with tokens the cache already holds (the conversation so far, then a new
// turn) evaluates only the tokens after that common prefix, as llama.cpp's
// server does with cache_prompt; growing the cache keeps what it holds.
//
// Two ways to drive it: generate() with a per-token callback, or start() then
// step() repeatedly (a worker thread can emit one event per step). cancel()
// may be called from any thread; the loop checks it before every forward
// step and returns with TurnEnd::Stopped.
//
// The prompt goes through in blocks of tokens (each one forward pass: every weight read once for the block),
// sized as it runs so that a block takes about a quarter of a second (16 to 512 tokens): after each block the
// generator reports its progress (setPromptProgress), so a long prompt shows how far it is. cancel() is also
// read between the layers of a block, so Stop takes effect within one layer's time. The block size changes no result: a
// product's bits do not depend on how many tokens share it, as long as it has two or more (the F32/F16 order,
// matmul.h), so no block of one token is left at the end of a longer prompt.

#include "engine/core/error.h"
#include "engine/decode/decodemodel.h"
#include "engine/decode/expertrouting.h"
#include "engine/decode/runstate.h"
#include "engine/decode/sampler.h"
#include "engine/decode/threadpool.h"
#include "engine/decode/turnend.h"
#include "engine/tokenizer/tokenid.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ws {

class Tokenizer;

struct GenerationSettings
{
    int maxTokens = 256;
    SamplerSettings sampling;
    std::vector<std::string> stopStrings; // need a piece function (setPieceFunction)
    bool stopAtEndOfGeneration = true;
};

struct GenerationResult
{
    std::vector<TokenId> tokens;    // generated ids (an end-of-generation id is not included)
    TurnEnd reason = TurnEnd::None; // never Error: a failure is the Expected's error
    double promptSeconds = 0.0;
    double generateSeconds = 0.0; // time of the token loop after the prompt
    double tokensPerSecond() const { return generateSeconds > 0.0 ? double(tokens.size()) / generateSeconds : 0.0; }
};

class Generator
{
public:
    // contextLength: KV cache positions (clamped to the model's context); threads <= 0: all cores.
    Generator(const DecodeModel& model, int contextLength, int threads);

    const DecodeModel& model() const { return m_model; }
    int threadCount() const { return m_pool.threadCount(); }
    int contextLength() const { return m_state->contextLength; }
    // The most positions the KV cache may grow to: the model's trained context unless limited.
    int maxContext() const { return m_maxContext; }
    // Limits the context (prompt + generated tokens) to `tokens` (at least 1, at most the model's context);
    // the KV cache grows turn by turn up to it and never beyond.
    void limitContext(int tokens);
    // F32 (the default, as the llama.cpp reference tests run) or F16. A change empties the cache.
    void setKvCacheType(KvCacheType type);
    KvCacheType kvCacheType() const { return m_kvType; }
    // Forgets what the cache holds: the next start() evaluates its whole prompt.
    void resetCache() { m_position = 0; }
    // Tokens whose keys and values the cache holds (the last start()'s prompt and the tokens run since).
    int cachedTokens() const { return m_position; }

    // Bytes of one token's text, for stop strings.
    void setPieceFunction(std::function<std::string(TokenId)> pieceOf) { m_pieceOf = std::move(pieceOf); }
    // The vocabulary: its end-of-generation ids, and its pieces for stop strings (unless a piece
    // function is set). It must outlive the generator.
    void setTokenizer(const Tokenizer& tokenizer);
    // OutOfRange when `promptTokens` do not fit the context (the one prompt-length check).
    Status checkPromptLength(size_t promptTokens) const;

    // Processes the prompt (at least one token) after the prefix the cache already holds (at least its
    // last token is evaluated, for the logits).
    Status start(std::span<const TokenId> prompt, const GenerationSettings& settings);
    // Of the last start()'s prompt: tokens taken from the cache, and tokens evaluated.
    int reusedPromptTokens() const { return m_promptReused; }
    int evaluatedPromptTokens() const { return m_promptEvaluated; }
    // Samples and returns the next token, or nullopt once stopped (see stopReason()).
    Expected<std::optional<TokenId>> step();
    TurnEnd stopReason() const { return m_reason; }
    const std::vector<TokenId>& generated() const { return m_generated; }
    // Logits that the next step() samples from (vocab).
    std::span<const float> logits() const { return m_state->logits; }
    // MoE models: the experts the token last run through the model routed to, per layer (the step that
    // made those logits); empty for dense models and before the first start().
    ExpertRouting routing() const;

    // start() + step() until stopped; onToken(id) is called for each generated token and may return
    // false to stop (reason Stopped).
    Expected<GenerationResult> generate(std::span<const TokenId> prompt, const GenerationSettings& settings,
                                        const std::function<bool(TokenId)>& onToken = {});

    // Called after each block of the prompt with the prompt tokens evaluated so far and those to evaluate
    // (after the prefix the cache holds); returning false stops the prompt (reason Stopped). May be empty.
    using PromptProgress = std::function<bool(int evaluated, int total)>;
    void setPromptProgress(PromptProgress progress) { m_promptProgress = std::move(progress); }
    // Tokens per forward pass while evaluating a prompt: a fixed number (>= 2), or 0 (the default) for
    // blocks sized to about 0.25 s each. Tests compare block sizes; 1 is taken as 2.
    void setPromptBlockTokens(int tokens) { m_fixedBlockTokens = tokens <= 0 ? 0 : std::max(2, tokens); }
    double promptSeconds() const { return m_promptSeconds; }

    // Thread-safe: stops the running start()/step()/generate() at the next check.
    void cancel() { m_cancel.store(true, std::memory_order_relaxed); }

private:
    bool isStopToken(TokenId id) const;
    // A cache of `contextLength` positions that keeps the first `keep` positions of the current one.
    void resizeCache(int contextLength, int keep);

    const DecodeModel& m_model;
    const Tokenizer* m_tokenizer = nullptr;
    ThreadPool m_pool;
    std::unique_ptr<RunState> m_state;
    int m_maxContext = 0;
    std::function<std::string(TokenId)> m_pieceOf;
    std::atomic<bool> m_cancel{false};

    GenerationSettings m_settings;
    std::optional<Sampler> m_sampler;
    std::vector<TokenId> m_history; // prompt + generated
    std::vector<TokenId> m_generated;
    std::string m_text; // generated text, for stop strings
    int m_position = 0; // tokens in the KV cache: the first m_position of m_history
    KvCacheType m_kvType = KvCacheType::F32;
    int m_promptReused = 0;
    int m_promptEvaluated = 0;
    bool m_needForward = false; // the last sampled token has not been run yet
    TurnEnd m_reason = TurnEnd::None;
    double m_promptSeconds = 0.0;
    PromptProgress m_promptProgress;
    int m_fixedBlockTokens = 0;
    int m_blockTokens = 64; // the adaptive block size, kept from one prompt to the next
};

} // namespace ws
