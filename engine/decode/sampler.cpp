#include "engine/decode/sampler.h"

#include <algorithm>
#include <cmath>

namespace ws {

Status SamplerSettings::validate() const
{
    if (!(temperature >= 0.0f && temperature <= 100.0f))
        return makeError(ErrorCode::InvalidArgument, "temperature must be between 0 and 100", "temperature");
    if (topK < 0)
        return makeError(ErrorCode::InvalidArgument, "top-k must not be negative", "top_k");
    if (!(topP > 0.0f && topP <= 1.0f))
        return makeError(ErrorCode::InvalidArgument, "top-p must be in (0, 1]", "top_p");
    if (!(minP >= 0.0f && minP <= 1.0f))
        return makeError(ErrorCode::InvalidArgument, "min-p must be in [0, 1]", "min_p");
    if (!(repetitionPenalty > 0.0f && repetitionPenalty <= 10.0f))
        return makeError(ErrorCode::InvalidArgument, "repetition penalty must be in (0, 10]", "repetition_penalty");
    if (penaltyLastN < 0)
        return makeError(ErrorCode::InvalidArgument, "penalty window must not be negative", "penalty_last_n");
    return Ok{};
}

Sampler::Sampler(const SamplerSettings& settings, int vocabSize)
    : m_settings(settings), m_rng(settings.seed), m_candidates(size_t(vocabSize)), m_probabilities(size_t(vocabSize))
{
}

double Sampler::uniform()
{
    return static_cast<double>(m_rng() >> 11) * (1.0 / 9007199254740992.0);
}

TokenId Sampler::argmax(std::span<const float> logits)
{
    size_t best = 0;
    for (size_t i = 1; i < logits.size(); ++i)
        if (logits[i] > logits[best])
            best = i;
    return static_cast<TokenId>(best);
}

TokenId Sampler::sample(std::span<float> logits, std::span<const TokenId> history)
{
    const SamplerSettings& s = m_settings;
    if (s.repetitionPenalty != 1.0f && s.penaltyLastN > 0) {
        const size_t n = std::min(history.size(), size_t(s.penaltyLastN));
        // Each distinct recent token is penalised once.
        for (size_t i = history.size() - n; i < history.size(); ++i) {
            const TokenId t = history[i];
            if (t < 0 || size_t(t) >= logits.size())
                continue;
            bool seen = false;
            for (size_t j = history.size() - n; j < i; ++j)
                seen = seen || history[j] == t;
            if (seen)
                continue;
            float& l = logits[size_t(t)];
            l = l > 0.0f ? l / s.repetitionPenalty : l * s.repetitionPenalty;
        }
    }
    if (s.temperature <= 0.0f)
        return argmax(logits);

    size_t count = logits.size();
    for (size_t i = 0; i < count; ++i)
        m_candidates[i] = {logits[i], static_cast<TokenId>(i)};
    auto byLogit = [](const Candidate& a, const Candidate& b) {
        return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
    };
    if (s.topK > 0 && size_t(s.topK) < count) {
        std::partial_sort(m_candidates.begin(), m_candidates.begin() + s.topK, m_candidates.begin() + ptrdiff_t(count),
                          byLogit);
        count = size_t(s.topK);
    } else if (s.topP < 1.0f || s.minP > 0.0f) {
        std::sort(m_candidates.begin(), m_candidates.begin() + ptrdiff_t(count), byLogit);
    }
    // Softmax of the untempered logits for top-p and min-p.
    if (s.topP < 1.0f || s.minP > 0.0f) {
        const float maxLogit = m_candidates[0].logit;
        double sum = 0.0;
        for (size_t i = 0; i < count; ++i) {
            m_probabilities[i] = std::exp(double(m_candidates[i].logit - maxLogit));
            sum += m_probabilities[i];
        }
        if (s.topP < 1.0f) {
            double cumulative = 0.0;
            size_t keep = count;
            for (size_t i = 0; i < count; ++i) {
                cumulative += m_probabilities[i] / sum;
                if (cumulative >= double(s.topP)) {
                    keep = i + 1;
                    break;
                }
            }
            count = keep;
        }
        if (s.minP > 0.0f) {
            // Keep tokens whose probability is at least minP times the top one's (which is exp(0) = 1 here).
            size_t keep = 1;
            while (keep < count && m_probabilities[keep] >= double(s.minP))
                ++keep;
            count = keep;
        }
    }
    // Temperature, softmax, draw.
    float maxLogit = m_candidates[0].logit;
    for (size_t i = 1; i < count; ++i)
        maxLogit = std::max(maxLogit, m_candidates[i].logit);
    double sum = 0.0;
    for (size_t i = 0; i < count; ++i) {
        m_probabilities[i] = std::exp(double(m_candidates[i].logit - maxLogit) / double(s.temperature));
        sum += m_probabilities[i];
    }
    const double r = uniform() * sum;
    double cumulative = 0.0;
    for (size_t i = 0; i < count; ++i) {
        cumulative += m_probabilities[i];
        if (r < cumulative)
            return m_candidates[i].id;
    }
    return m_candidates[count - 1].id;
}

} // namespace ws
