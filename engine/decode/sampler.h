#pragma once
// Picks the next token from the logits. Temperature 0 is greedy (the first
// maximum, as llama.cpp). Otherwise, in llama.cpp's order: repetition
// penalty over the recent tokens, top-k, top-p (nucleus) and min-p on the
// untempered distribution, then temperature, softmax and a draw from the
// sampler's own RNG. The RNG is seeded once, so a seed reproduces a run.
// Buffers are sized to the vocabulary at construction: sampling allocates
// nothing.

#include "engine/core/error.h"
#include "engine/tokenizer/tokenid.h"

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace ws {

struct SamplerSettings
{
    float temperature = 0.0f;       // 0: greedy
    int topK = 0;                   // 0: off
    float topP = 1.0f;              // 1: off
    float minP = 0.0f;              // 0: off
    float repetitionPenalty = 1.0f; // 1: off; >1 discourages repeats (llama.cpp's rule)
    int penaltyLastN = 64;          // how many recent tokens the penalty looks at
    uint64_t seed = 0;

    // InvalidArgument for values outside their meaningful ranges.
    Status validate() const;
};

class Sampler
{
public:
    Sampler(const SamplerSettings& settings, int vocabSize);

    const SamplerSettings& settings() const { return m_settings; }
    void reseed(uint64_t seed) { m_rng.seed(seed); }

    // `logits` (vocab) may be modified (penalty). `history`: prompt and generated tokens so far.
    TokenId sample(std::span<float> logits, std::span<const TokenId> history);

    static TokenId argmax(std::span<const float> logits);

private:
    double uniform(); // [0, 1)

    struct Candidate
    {
        float logit;
        TokenId id;
    };

    SamplerSettings m_settings;
    std::mt19937_64 m_rng;
    std::vector<Candidate> m_candidates; // (vocab)
    std::vector<double> m_probabilities; // (vocab)
};

} // namespace ws
