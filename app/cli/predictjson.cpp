#include "app/cli/predictjson.h"

#include "engine/calibration/stackprofile.h"

#include <QJsonArray>

namespace ws::cli {

namespace {
QJsonArray pair(double a, double b)
{
    return QJsonArray{a, b};
}
} // namespace

QJsonObject predictionJson(const ModelConfig& model, const HardwareSpec& hardware, const Workload& w,
                           const Prediction& p, const QJsonArray& notes)
{
    QJsonObject breakdown;
    for (const auto& b : p.breakdown)
        breakdown.insert(QString::fromStdString(b.id), 1e3 * b.seconds);
    QJsonArray curve;
    for (const auto& c : p.concurrencyCurve)
        curve.append(QJsonObject{{QStringLiteral("concurrency"), c.concurrency},
                                 {QStringLiteral("tokens_per_second_per_user"), c.tokensPerSecondPerUser},
                                 {QStringLiteral("aggregate_tokens_per_second"), c.aggregateTokensPerSecond}});
    QJsonArray drivers;
    for (const RangeDriver& d : p.rangeDrivers)
        drivers.append(QJsonObject{{QStringLiteral("input"), QString::fromStdString(d.input)},
                                   {QStringLiteral("unit"), QString::fromStdString(d.unit)},
                                   {QStringLiteral("assumed"), d.assumed},
                                   {QStringLiteral("low"), d.low},
                                   {QStringLiteral("high"), d.high},
                                   {QStringLiteral("tokens_per_second_per_user_at_low"), d.tokensPerSecondAtLow},
                                   {QStringLiteral("tokens_per_second_per_user_at_high"), d.tokensPerSecondAtHigh},
                                   {QStringLiteral("effect"), d.effect},
                                   {QStringLiteral("share"), d.share},
                                   {QStringLiteral("source"), QString::fromStdString(d.source)}});
    const Ceiling& c = p.ceiling;
    const QJsonObject ceiling{{QStringLiteral("tokens_per_second_per_user"), c.tokensPerSecondPerUser},
                              {QStringLiteral("bound"), QString::fromStdString(c.bound)},
                              {QStringLiteral("peak_flops_per_s"), c.peakFlopsPerS},
                              {QStringLiteral("peak_bytes_per_s"), c.peakBytesPerS},
                              {QStringLiteral("flops_per_step"), c.flopsPerStep},
                              {QStringLiteral("bytes_per_step"), c.bytesPerStep},
                              {QStringLiteral("fabric_s"), c.fabricSeconds},
                              {QStringLiteral("arithmetic_intensity"), c.arithmeticIntensity()},
                              {QStringLiteral("clamped"), c.clamped},
                              {QStringLiteral("gap"), QString::fromStdString(c.gap)}};
    // The per-token costs that do not shrink with the model, each with its source, and whether they set the point.
    QJsonArray floorComponents;
    for (const FloorComponent& f : p.floor.components)
        floorComponents.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(f.id)},
                                           {QStringLiteral("s_per_token"), f.seconds},
                                           {QStringLiteral("source"), QString::fromStdString(f.source)}});
    QJsonObject floor{{QStringLiteral("s_per_token"), p.floor.seconds},
                      {QStringLiteral("tokens_per_second_per_user"), p.floor.seconds > 0 ? 1.0 / p.floor.seconds : 0.0},
                      {QStringLiteral("model_s_per_token"), p.floor.modelSeconds},
                      {QStringLiteral("binds"), p.floor.binds},
                      {QStringLiteral("formula"), QString::fromStdString(p.floor.formula)},
                      {QStringLiteral("components"), floorComponents}};
    if (p.floor.withoutGraphsSeconds > 0)
        floor.insert(QStringLiteral("without_cuda_graphs_s_per_token"), p.floor.withoutGraphsSeconds);
    QJsonObject out{
        {QStringLiteral("model"), QString::fromStdString(model.id)},
        {QStringLiteral("hardware"), QString::fromStdString(hardware.id)},
        {QStringLiteral("precision"), QString::fromLatin1(precisionId(w.precision))},
        {QStringLiteral("batch"), p.concurrency},
        {QStringLiteral("context"), double(w.contextTokens)},
        {QStringLiteral("tokens_per_second_per_user"), p.tokensPerSecondPerUser},
        {QStringLiteral("tokens_per_second_per_user_range"),
         pair(p.tokensPerSecondPerUserRange.low, p.tokensPerSecondPerUserRange.high)},
        {QStringLiteral("range_drivers"), drivers},
        {QStringLiteral("ceiling"), ceiling},
        {QStringLiteral("floor"), floor},
        {QStringLiteral("ms_per_token"), 1e3 * p.secondsPerToken},
        {QStringLiteral("ttft_ms"), 1e3 * p.ttftSeconds},
        {QStringLiteral("ttft_ms_range"), pair(1e3 * p.ttftRange.low, 1e3 * p.ttftRange.high)},
        {QStringLiteral("aggregate_tokens_per_second"), p.aggregateTokensPerSecond},
        {QStringLiteral("max_concurrency"), p.maxConcurrency},
        {QStringLiteral("devices"), p.devices},
        {QStringLiteral("devices_needed"), p.devicesNeeded},
        {QStringLiteral("devices_chosen"), p.devicesChosen ? QStringLiteral("automatic") : QStringLiteral("given")},
        {QStringLiteral("profile"), QString::fromStdString(p.profile)},
        {QStringLiteral("breakdown"), breakdown},
        {QStringLiteral("breakdown_unit"), QStringLiteral("ms per token")},
        {QStringLiteral("concurrency_curve"), curve},
        {QStringLiteral("agent_workflow_s"), p.agentWorkflowSeconds},
        {QStringLiteral("answer_s"), p.answerSeconds},
        {QStringLiteral("answer_s_range"), pair(p.answerSecondsRange.low, p.answerSecondsRange.high)},
        {QStringLiteral("notes"), notes},
    };
    if (!p.stack.empty()) { // the serving stack (engine/calibration/stackprofile.h) with what is known and assumed
        QJsonObject stack{{QStringLiteral("id"), QString::fromStdString(p.stack)},
                          {QStringLiteral("name"), QString::fromStdString(p.stackName)},
                          {QStringLiteral("public"), QString::fromStdString(p.stackPublic)}};
        if (const auto& all = shippedStackProfiles())
            for (const StackProfile& s : *all)
                if (s.id == p.stack) {
                    stack.insert(QStringLiteral("known"), QString::fromStdString(s.known));
                    stack.insert(QStringLiteral("assumed"), QString::fromStdString(s.assumed));
                    stack.insert(QStringLiteral("source"), QString::fromStdString(s.source));
                    stack.insert(QStringLiteral("date_source"), QString::fromStdString(s.dateSource));
                }
        out.insert(QStringLiteral("stack"), stack);
    }
    if (p.cost.known) {
        out.insert(QStringLiteral("usd_per_million_tokens"), p.cost.usdPerMillionTokens);
        out.insert(QStringLiteral("usd_per_million_tokens_range"),
                   pair(p.cost.usdPerMillionTokensRange.low, p.cost.usdPerMillionTokensRange.high));
        out.insert(QStringLiteral("cost_devices_range"), pair(p.cost.devicesRange.low, p.cost.devicesRange.high));
        out.insert(QStringLiteral("hourly_cost_usd"), p.cost.hourlyUsd);
        out.insert(QStringLiteral("hourly_cost_usd_range"),
                   pair(p.cost.hourlyUsdRange.low, p.cost.hourlyUsdRange.high));
        out.insert(QStringLiteral("hourly_cost_source"), QString::fromStdString(p.cost.source));
    }
    if (p.powerWatts > 0) {
        out.insert(QStringLiteral("power_watts"), p.powerWatts);
        out.insert(QStringLiteral("joules_per_token"), p.joulesPerToken);
    }
    if (p.defects.applied) {
        // The same object as `place --json` prints: totals over the wafers used.
        const WaferDefects& d = p.defects;
        out.insert(QStringLiteral("defects"),
                   QJsonObject{{QStringLiteral("dead_cores"), double(d.deadCores)},
                               {QStringLiteral("spares_used"), double(d.sparesUsed)},
                               {QStringLiteral("unrepairable_segments"), double(d.unrepairableSegments)},
                               {QStringLiteral("usable_cores"), double(d.usableCores)},
                               {QStringLiteral("defect_rate"), d.defectRate},
                               {QStringLiteral("seed"), double(d.seed)},
                               {QStringLiteral("hop_stretch"), d.hopStretch}});
        out.insert(QStringLiteral("usable_mesh"), QJsonArray{d.usableCols, d.usableRows});
    }
    // What one token adds to the KV cache over all layers; with multi-head latent attention the compressed
    // latent and the shared RoPE key per layer, named as such.
    const KvCacheFacts& kv = p.kvCache;
    QJsonObject kvCache{{QStringLiteral("attention"), QString::fromStdString(kv.attention)},
                        {QStringLiteral("values_per_token_per_layer"), double(kv.valuesPerTokenPerLayer)},
                        {QStringLiteral("bytes_per_value"), kv.bytesPerValue},
                        {QStringLiteral("layers"), model.layers},
                        {QStringLiteral("bytes_per_token"), kv.bytesPerToken}};
    if (model.isMla()) {
        kvCache.insert(QStringLiteral("kv_lora_rank"), model.kvLoraRank);
        kvCache.insert(QStringLiteral("qk_rope_head_dim"), model.qkRopeHeadDim);
        out.insert(QStringLiteral("mla_kv_bytes_per_token"), kv.bytesPerToken);
    }
    out.insert(QStringLiteral("kv_cache"), kvCache);
    out.insert(QStringLiteral("kv_bytes_per_token"), kv.bytesPerToken);
    if (p.kind == HardwareKind::Wafer) {
        out.insert(QStringLiteral("kv_capacity_tokens"), double(p.kvCapacityTokens));
        out.insert(QStringLiteral("sram_headroom_bytes"), double(p.sramHeadroomBytes));
    }
    return out;
}

} // namespace ws::cli
