// The comparison's defaults: the systems compared, the workload and reading speed they start from, and the
// workload a set of settings asks for.
#include "app/compare/comparecontroller.h"

namespace ws {

std::vector<CompareSystemChoice> ComparisonController::defaultSystems()
{
    return {
        {QStringLiteral("wse3"), 0, QColor(0xe6, 0x7e, 0x22), true},
        {QStringLiteral("h100"), 8, QColor(0x76, 0xb9, 0x00), true},
        {QStringLiteral("h200"), 8, QColor(0x3e, 0x8e, 0x41), false},
        {QStringLiteral("b200"), 8, QColor(0x1f, 0x6f, 0x8b), true},
        {QStringLiteral("groq-lpu"), 0, QColor(0xc0, 0x39, 0x2b), true},
    };
}

views::ComparisonSettings ComparisonController::defaultSettings()
{
    views::ComparisonSettings s;
    const Workload w; // engine defaults: 5 x 500-token agent steps, [Tokens-per-Chinese-character]
    s.modelId = QStringLiteral("llama-3.1-70b");
    s.concurrency = w.concurrency;
    s.contextTokens = w.contextTokens;
    s.promptTokens = w.promptTokens;
    s.outputTokens = w.outputTokens;
    s.agentSteps = w.agentSteps;
    s.agentTokensPerStep = w.agentTokensPerStep;
    s.answerCharacters = 1000; // an example: a 1,000-character article
    s.tokensPerCharacterLow = w.tokensPerCharacterLow;
    s.tokensPerCharacterHigh = w.tokensPerCharacterHigh;
    return s;
}

views::ReadingSpeed ComparisonController::defaultReadingSpeed()
{
    views::ReadingSpeed r;
    // [Chinese-reading-rate]: 259.5 ± 38.2 characters/min; the range is the mean ± 1 SD.
    r.charactersPerMinuteLow = 221;
    r.charactersPerMinuteHigh = 298;
    r.source = tr("Wang, Lin & Guo, 'Visual requirement for Chinese reading with normal vision', Brain and Behavior "
                  "2019, https://doi.org/10.1002/brb3.1216: 259.5 ± 38.2 characters/min (30 readers, mean ± 1 SD) "
                  "[Chinese-reading-rate]");
    return r;
}

Workload ComparisonController::workloadFor(const views::ComparisonSettings& s, Precision precision)
{
    Workload w;
    w.precision = precision;
    w.concurrency = s.concurrency;
    w.contextTokens = s.contextTokens;
    w.promptTokens = s.promptTokens;
    w.outputTokens = s.outputTokens;
    w.agentSteps = s.agentSteps;
    w.agentTokensPerStep = s.agentTokensPerStep;
    w.answerCharacters = s.answerCharacters;
    w.tokensPerCharacterLow = s.tokensPerCharacterLow;
    w.tokensPerCharacterHigh = s.tokensPerCharacterHigh;
    return w;
}

} // namespace ws
