#include "engine/perf/predictionutil.h"

#include <algorithm>

namespace ws {

std::vector<int> concurrencyLevels(int requested)
{
    std::vector<int> levels;
    for (int c = 1; c <= 1024; c *= 2)
        levels.push_back(c);
    if (requested > 0)
        levels.push_back(requested);
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return levels;
}

void completeScenarios(Prediction& p, const Workload& w)
{
    const double tps = p.tokensPerSecondPerUser;
    if (tps <= 0)
        return;
    p.agentWorkflowSeconds = w.agentSteps * (p.ttftSeconds + double(w.agentTokensPerStep) / tps);
    const double lowTps = p.tokensPerSecondPerUserRange.low > 0 ? p.tokensPerSecondPerUserRange.low : tps;
    const double highTps = p.tokensPerSecondPerUserRange.high > 0 ? p.tokensPerSecondPerUserRange.high : tps;
    const double chars = double(w.answerCharacters);
    const double midTpc = 0.5 * (w.tokensPerCharacterLow + w.tokensPerCharacterHigh);
    p.answerSeconds = p.ttftSeconds + chars * midTpc / tps;
    const double ttftLow = p.ttftRange.low > 0 ? p.ttftRange.low : p.ttftSeconds;
    const double ttftHigh = p.ttftRange.high > 0 ? p.ttftRange.high : p.ttftSeconds;
    p.answerSecondsRange = {ttftLow + chars * w.tokensPerCharacterLow / highTps,
                            ttftHigh + chars * w.tokensPerCharacterHigh / lowTps};
    if (p.powerWatts > 0 && p.aggregateTokensPerSecond > 0)
        p.joulesPerToken = p.powerWatts / p.aggregateTokensPerSecond;
}

double speculativeSecondsPerToken(const SpeculativeDecoding& spec, double draftSecondsPerToken,
                                  const std::function<double(int)>& verifySeconds)
{
    const int k = std::max(0, spec.tokensPerStep);
    const double step = k * draftSecondsPerToken + verifySeconds(k + 1);
    return step / spec.expectedTokensPerStep();
}

Expected<Prediction> startPrediction(const ModelConfig& model, const HardwareSpec& hardware, const std::string& profile,
                                     const Workload& workload, int needed, int requested, const std::string& unit,
                                     const std::string& chosenNote)
{
    if (requested > 0 && requested < needed)
        return makeError(ErrorCode::OutOfRange,
                         model.id + " needs " + std::to_string(needed) + " " + hardware.id + " " + unit + " at " +
                             std::string(precisionId(workload.precision)) + " and " +
                             std::to_string(workload.contextTokens) + " tokens of context; " +
                             std::to_string(requested) + " given",
                         "devices");
    Prediction p;
    p.modelId = model.id;
    p.hardwareId = hardware.id;
    p.kind = hardware.kind;
    p.profile = profile;
    p.devicesNeeded = needed;
    p.devicesChosen = requested <= 0;
    p.devices = p.devicesChosen ? needed : requested;
    if (p.devicesChosen)
        p.notes.push_back(chosenNote + ": " + std::to_string(p.devices));
    return p;
}

} // namespace ws
