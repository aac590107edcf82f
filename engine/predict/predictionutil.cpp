#include "engine/predict/predictionutil.h"

#include "engine/core/sumof.h"

#include <algorithm>
#include <cmath>

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

RangeDriver rangeDriver(std::string input, std::string unit, double assumed, double low, double high,
                        std::string source, double pointTps, double tpsAtLow, double tpsAtHigh)
{
    RangeDriver d;
    d.input = std::move(input);
    d.unit = std::move(unit);
    d.assumed = assumed;
    d.low = low;
    d.high = high;
    d.source = std::move(source);
    d.tokensPerSecondAtLow = tpsAtLow;
    d.tokensPerSecondAtHigh = tpsAtHigh;
    const double lo = std::min({pointTps, tpsAtLow, tpsAtHigh});
    const double hi = std::max({pointTps, tpsAtLow, tpsAtHigh});
    d.effect = lo > 0 ? hi / lo : 1.0;
    return d;
}

namespace {
// The point's largest breakdown phases, when the ceiling is far above it: the time the roofline leaves out.
std::string ceilingGap(const Prediction& p)
{
    const double ratio = p.tokensPerSecondPerUser > 0 ? p.ceiling.tokensPerSecondPerUser / p.tokensPerSecondPerUser : 0;
    const double total = sumOf(p.breakdown, &PhaseTime::seconds);
    if (ratio <= kCeilingGapExplained || !(total > 0))
        return {};
    std::vector<PhaseTime> phases = p.breakdown;
    std::sort(phases.begin(), phases.end(),
              [](const PhaseTime& a, const PhaseTime& b) { return a.seconds > b.seconds; });
    std::string text = "the point is " + std::to_string(std::llround(ratio)) + "x below the " + p.ceiling.bound +
                       " roof: each token spends ";
    double covered = 0;
    for (size_t i = 0; i < phases.size() && covered < 0.8 * total; ++i) {
        if (i > 0)
            text += ", ";
        text += std::to_string(std::llround(100.0 * phases[i].seconds / total)) + " % in " + phases[i].id;
        covered += phases[i].seconds;
    }
    return text +
           " at the rates and fixed costs the model takes from its measurements, where the roof takes every byte "
           "and operation at the peak of every unit at once";
}

void applyCeiling(Prediction& p)
{
    Ceiling& c = p.ceiling;
    const double memory = c.peakBytesPerS > 0 ? c.bytesPerStep / c.peakBytesPerS : 0;
    const double compute = c.peakFlopsPerS > 0 ? c.flopsPerStep / c.peakFlopsPerS : 0;
    const double floor = std::max({memory, compute, c.fabricSeconds});
    if (!(floor > 0))
        return;
    c.bound = floor == memory ? "memory" : floor == compute ? "compute" : "fabric";
    c.tokensPerSecondPerUser = c.tokensPerStep / floor;
    const double cap = c.tokensPerSecondPerUser;
    if (p.tokensPerSecondPerUser > cap) {
        c.clamped = true;
        p.notes.push_back("the model's figure exceeds the " + c.bound + " ceiling; cut to it");
        p.tokensPerSecondPerUser = cap;
        p.secondsPerToken = 1.0 / cap;
        p.aggregateTokensPerSecond = cap * p.concurrency;
    }
    Range& r = p.tokensPerSecondPerUserRange;
    r.high = std::min(r.high, cap);
    r.low = std::min(r.low, p.tokensPerSecondPerUser);
    c.gap = ceilingGap(p);
}
} // namespace

void finishRange(Prediction& p)
{
    // The drivers are independent inputs, each low/high read as the same coverage of what is plausible, and
    // their effects multiply the speed. In log space the effects add, so the spread of their sum is the
    // root-sum-square of the one-at-a-time log effects, separately below and above the point (the point
    // stays inside). The product of the ratios would assume every input at its worst together.
    std::sort(p.rangeDrivers.begin(), p.rangeDrivers.end(),
              [](const RangeDriver& a, const RangeDriver& b) { return a.effect > b.effect; });
    const double point = p.tokensPerSecondPerUser;
    double down = 0;
    double up = 0;
    double total = 0;
    for (const RangeDriver& d : p.rangeDrivers) {
        const double lo = std::min({point, d.tokensPerSecondAtLow, d.tokensPerSecondAtHigh});
        const double hi = std::max({point, d.tokensPerSecondAtLow, d.tokensPerSecondAtHigh});
        if (lo > 0 && point > 0) {
            down += std::pow(std::log(point / lo), 2);
            up += std::pow(std::log(hi / point), 2);
        }
        total += std::pow(std::log(d.effect), 2);
    }
    for (RangeDriver& d : p.rangeDrivers)
        d.share = total > 0 ? std::pow(std::log(d.effect), 2) / total : 0;
    p.tokensPerSecondPerUserRange = {point * std::exp(-std::sqrt(down)), point * std::exp(std::sqrt(up))};
    applyCeiling(p);
}

void settleFloor(Prediction& p, Floor floor)
{
    floor.modelSeconds = p.secondsPerToken;
    floor.binds = floor.seconds > p.secondsPerToken;
    if (floor.binds) {
        p.breakdown.push_back({"fixed_cost_floor", floor.seconds - p.secondsPerToken});
        p.secondsPerToken = floor.seconds;
        p.tokensPerSecondPerUser = 1.0 / floor.seconds;
        p.aggregateTokensPerSecond = p.concurrency / floor.seconds;
        p.notes.push_back("the fixed per-token costs (" + floor.formula + ") set the speed: the model alone says " +
                          std::to_string(std::llround(1.0 / floor.modelSeconds)) + " tokens/s per user");
    }
    p.floor = std::move(floor);
}

void completeCost(Prediction& p, const HardwareSpec& hw)
{
    const HourlyCost& c = hw.cost;
    if (!(c.usd > 0) || !(p.aggregateTokensPerSecond > 0))
        return;
    TokenCost& t = p.cost;
    t.known = true;
    const double devices = std::max(1, p.devices);
    t.hourlyUsd = c.usd * devices;
    t.hourlyUsdRange = {(c.lowUsd > 0 ? c.lowUsd : c.usd) * devices, std::max(c.usd, c.highUsd) * devices};
    auto perMillion = [](double hourly, double tokensPerSecond) { return hourly / (tokensPerSecond * 3600.0) * 1e6; };
    t.usdPerMillionTokens = perMillion(t.hourlyUsd, p.aggregateTokensPerSecond);
    const Range& speed = p.tokensPerSecondPerUserRange;
    const double users = double(std::max(1, p.concurrency));
    const double fast = speed.high > 0 ? speed.high * users : p.aggregateTokensPerSecond;
    const double slow = speed.low > 0 ? speed.low * users : p.aggregateTokensPerSecond;
    // Each end of the speed range on the devices it needs: the most any driver's faster (slower) end asks for.
    double fastDevices = devices;
    double slowDevices = devices;
    for (const RangeDriver& d : p.rangeDrivers) {
        const auto endDevices = [&](double tps, int at) {
            if (at <= 0)
                return;
            if (tps > p.tokensPerSecondPerUser)
                fastDevices = std::max(fastDevices, double(at));
            else if (tps < p.tokensPerSecondPerUser)
                slowDevices = std::max(slowDevices, double(at));
        };
        endDevices(d.tokensPerSecondAtLow, d.devicesAtLow);
        endDevices(d.tokensPerSecondAtHigh, d.devicesAtHigh);
    }
    const double lowPerDevice = t.hourlyUsdRange.low / devices;
    const double highPerDevice = t.hourlyUsdRange.high / devices;
    // The cheap end: the cheap hour at the fast end on its devices, or at the point where more devices cost more
    // than they speed up; the dear end likewise.
    t.usdPerMillionTokensRange = {std::min(perMillion(lowPerDevice * fastDevices, fast),
                                           perMillion(t.hourlyUsdRange.low, p.aggregateTokensPerSecond)),
                                  std::max(perMillion(highPerDevice * slowDevices, slow),
                                           perMillion(t.hourlyUsdRange.high, p.aggregateTokensPerSecond))};
    t.devicesRange = {devices, std::max(fastDevices, slowDevices)};
    const auto src = hw.sources.find("hourlyCostUsd");
    t.source = src != hw.sources.end() ? src->second : std::string("hardware preset");
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

KvCacheFacts kvCacheFacts(const ModelConfig& model, double bytesPerValue)
{
    KvCacheFacts f;
    f.attention = model.isMla()                         ? "mla"
                  : model.kvHeadCount == 1              ? "mqa"
                  : model.kvHeadCount < model.headCount ? "gqa"
                                                        : "mha";
    f.valuesPerTokenPerLayer = model.kvValuesPerTokenPerLayer();
    f.bytesPerValue = bytesPerValue;
    f.bytesPerToken = double(model.layers) * double(f.valuesPerTokenPerLayer) * bytesPerValue;
    return f;
}

} // namespace ws
