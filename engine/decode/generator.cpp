#include "engine/decode/generator.h"

#include "engine/decode/forward.h"
#include "engine/decode/moeblock.h"
#include "engine/tokenizer/tokenizer.h"

#include <algorithm>
#include <chrono>

namespace ws {

namespace {
constexpr int kMaxBatch = 512;         // llama.cpp's default n_batch: the largest block of prompt tokens
constexpr double kBlockSeconds = 0.25; // a prompt block's target time: its progress report's period

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

Generator::Generator(const DecodeModel& model, int contextLength, int threads) : m_model(model), m_pool(threads)
{
    m_maxContext = std::max(1, model.config().contextLength);
    const int ctx = std::clamp(contextLength, 1, m_maxContext);
    m_state = std::make_unique<RunState>(model.config(), ctx, std::min(kMaxBatch, ctx), m_pool.threadCount(), m_kvType);
}

void Generator::resizeCache(int contextLength, int keep)
{
    auto state = std::make_unique<RunState>(m_model.config(), contextLength, std::min(kMaxBatch, contextLength),
                                            m_pool.threadCount(), m_kvType);
    keep = std::clamp(keep, 0, std::min(contextLength, m_position));
    if (keep > 0 && state->kvType == m_state->kvType)
        state->copyCache(*m_state, keep);
    else
        keep = 0;
    m_state = std::move(state);
    m_position = keep;
}

void Generator::limitContext(int tokens)
{
    m_maxContext = std::clamp(tokens, 1, std::max(1, m_model.config().contextLength));
    if (m_state->contextLength > m_maxContext)
        resizeCache(m_maxContext, m_maxContext);
}

void Generator::setKvCacheType(KvCacheType type)
{
    if (type == m_kvType)
        return;
    m_kvType = type;
    resizeCache(m_state->contextLength, 0);
}

void Generator::setTokenizer(const Tokenizer& tokenizer)
{
    m_tokenizer = &tokenizer;
    if (!m_pieceOf)
        m_pieceOf = [&tokenizer](TokenId id) { return tokenizer.piece(id); };
}

bool Generator::isStopToken(TokenId id) const
{
    return m_tokenizer && m_tokenizer->isEndOfGeneration(id);
}

Status Generator::checkPromptLength(size_t promptTokens) const
{
    if (promptTokens > size_t(m_maxContext))
        return makeError(ErrorCode::OutOfRange, "the prompt has " + std::to_string(promptTokens) +
                                                    " tokens, more than the context of " +
                                                    std::to_string(m_maxContext));
    return Ok{};
}

Status Generator::start(std::span<const TokenId> prompt, const GenerationSettings& settings)
{
    m_cancel.store(false, std::memory_order_relaxed);
    if (prompt.empty())
        return makeError(ErrorCode::InvalidArgument, "the prompt has no tokens (at least BOS is needed)");
    if (settings.maxTokens < 0)
        return makeError(ErrorCode::InvalidArgument, "the token limit must not be negative", "max_tokens");
    if (auto v = settings.sampling.validate(); !v)
        return v.error();
    if (!settings.stopStrings.empty() && !m_pieceOf)
        return makeError(ErrorCode::InvalidArgument, "stop strings need a piece function");
    if (Status fits = checkPromptLength(prompt.size()); !fits)
        return fits.error();
    // The prefix the cache holds already (its keys and values are those of these very tokens); the last
    // prompt token is always run again, for its logits.
    const size_t cached = std::min<size_t>(size_t(m_position), m_history.size());
    const auto differ = std::mismatch(prompt.begin(), prompt.begin() + std::ptrdiff_t(std::min(cached, prompt.size())),
                                      m_history.begin());
    const int reuse = int(std::min<size_t>(size_t(differ.first - prompt.begin()), prompt.size() - 1));
    m_position = reuse;
    const int needed = int(std::min<int64_t>(int64_t(prompt.size()) + settings.maxTokens, m_maxContext));
    if (needed > m_state->contextLength)
        resizeCache(needed, reuse);
    m_promptReused = m_position;
    m_promptEvaluated = int(prompt.size()) - m_position;
    m_settings = settings;
    m_sampler.emplace(settings.sampling, m_model.config().vocabSize);
    m_history.assign(prompt.begin(), prompt.end());
    m_history.reserve(prompt.size() + size_t(settings.maxTokens));
    m_generated.clear();
    m_generated.reserve(size_t(settings.maxTokens));
    m_text.clear();
    m_needForward = false;
    m_reason = TurnEnd::None;
    const auto t0 = std::chrono::steady_clock::now();
    const int total = m_promptEvaluated;
    for (size_t at = size_t(m_position); at < prompt.size();) {
        if (m_cancel.load(std::memory_order_relaxed)) {
            m_reason = TurnEnd::Stopped;
            return Ok{};
        }
        const size_t left = prompt.size() - at;
        size_t n = std::min(
            left, size_t(std::min(m_fixedBlockTokens > 0 ? m_fixedBlockTokens : m_blockTokens, m_state->maxBatch)));
        if (left - n == 1) // never a last block of one token (it would take the one-token F32/F16 order)
            n = n + 1 <= size_t(m_state->maxBatch) ? n + 1 : n - 1;
        const auto b0 = std::chrono::steady_clock::now();
        auto status = forward(m_model.config(), m_model.weights(), *m_state, m_pool, prompt.subspan(at, n), m_position,
                              &m_cancel);
        if (!status && status.error().code == ErrorCode::Cancelled) {
            m_reason = TurnEnd::Stopped; // within the block: its positions are not cached
            return Ok{};
        }
        if (!status)
            return status.error();
        m_position += int(n);
        at += n;
        if (m_fixedBlockTokens == 0 && n >= 16) {
            // The next block at about kBlockSeconds from this one's speed, in steps of 16 tokens.
            const double seconds = std::max(secondsSince(b0), 1e-6);
            const double tokens = double(n) * kBlockSeconds / seconds;
            m_blockTokens = std::clamp(int(tokens / 16.0) * 16, 16, kMaxBatch);
        }
        if (m_promptProgress && !m_promptProgress(int(at) - (int(prompt.size()) - total), total)) {
            m_reason = TurnEnd::Stopped;
            return Ok{};
        }
    }
    m_promptSeconds = secondsSince(t0);
    if (settings.maxTokens == 0)
        m_reason = TurnEnd::TokenLimit;
    return Ok{};
}

Expected<std::optional<TokenId>> Generator::step()
{
    if (m_reason != TurnEnd::None)
        return std::optional<TokenId>();
    if (m_cancel.load(std::memory_order_relaxed)) {
        m_reason = TurnEnd::Stopped;
        return std::optional<TokenId>();
    }
    if (m_needForward) {
        if (m_position >= m_state->contextLength) {
            m_reason = TurnEnd::ContextFull;
            return std::optional<TokenId>();
        }
        const TokenId last = m_history.back();
        auto status = forward(m_model.config(), m_model.weights(), *m_state, m_pool, std::span<const TokenId>(&last, 1),
                              m_position);
        if (!status)
            return status.error();
        ++m_position;
        m_needForward = false;
    }
    const TokenId next = m_sampler->sample(m_state->logits, m_history);
    if (m_settings.stopAtEndOfGeneration && isStopToken(next)) {
        m_reason = TurnEnd::EndOfGeneration;
        return std::optional<TokenId>();
    }
    m_history.push_back(next);
    m_generated.push_back(next);
    m_needForward = true;
    if (!m_settings.stopStrings.empty()) {
        m_text += m_pieceOf(next);
        for (const auto& stop : m_settings.stopStrings) {
            if (!stop.empty() && m_text.find(stop) != std::string::npos) {
                m_reason = TurnEnd::StopString;
                break;
            }
        }
    }
    if (m_reason == TurnEnd::None && int(m_generated.size()) >= m_settings.maxTokens)
        m_reason = TurnEnd::TokenLimit;
    return std::optional<TokenId>(next);
}

Expected<GenerationResult> Generator::generate(std::span<const TokenId> prompt, const GenerationSettings& settings,
                                               const std::function<bool(TokenId)>& onToken)
{
    auto started = start(prompt, settings);
    if (!started)
        return started.error();
    GenerationResult result;
    result.promptSeconds = m_promptSeconds;
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        auto next = step();
        if (!next)
            return next.error();
        if (!next->has_value())
            break;
        if (onToken && !onToken(**next)) {
            m_reason = TurnEnd::Stopped;
            break;
        }
    }
    result.generateSeconds = secondsSince(t0);
    result.tokens = m_generated;
    result.reason = m_reason;
    return result;
}

ExpertRouting Generator::routing() const
{
    return blocks::routingOf(m_model.config(), *m_state, m_state->batchTokens - 1);
}

} // namespace ws
