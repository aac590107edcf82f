#include "app/export/predictiontables.h"

#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/precision.h"
#include "engine/wafer/dataflow/schedule.h"

#include <QJsonArray>

namespace ws {

namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// The predictor's 0 means "no published figure" (no power in the hardware preset): an empty CSV field and a
// JSON null, never a 0 that reads as free energy.
QVariant knownOrEmpty(double value)
{
    return value > 0 ? QVariant(value) : QVariant();
}

} // namespace

QJsonObject PredictionTables::workloadJson(const Workload& w)
{
    return QJsonObject{{"precision", q(std::string(precisionId(w.precision)))},
                       {"concurrency", w.concurrency},
                       {"context_tokens", double(w.contextTokens)},
                       {"prompt_tokens", double(w.promptTokens)},
                       {"output_tokens", double(w.outputTokens)},
                       {"speculative_decoding", w.speculative.enabled},
                       {"speculative_tokens_per_step", w.speculative.tokensPerStep},
                       {"speculative_acceptance_rate", w.speculative.acceptanceRate}};
}

DataTable PredictionTables::predictions(const std::vector<Prediction>& predictions, const Workload& workload,
                                        const std::vector<HardwareSpec>& hardware)
{
    DataTable table;
    table.name = QStringLiteral("predictions");
    table.columns = {"model",
                     "hardware",
                     "kind",
                     "devices",
                     "devices_chosen",
                     "concurrency",
                     "tokens_per_second_per_user",
                     "tokens_per_second_per_user_low",
                     "tokens_per_second_per_user_high",
                     "ttft_seconds",
                     "aggregate_tokens_per_second",
                     "power_watts",
                     "joules_per_token",
                     "profile",
                     "notes"};
    QJsonArray models;
    for (const Prediction& p : predictions) {
        QStringList notes;
        for (const std::string& note : p.notes)
            notes << q(note);
        table.rows.append(QVariantList{q(p.modelId), q(p.hardwareId), QString::fromLatin1(hardwareKindId(p.kind)),
                                       p.devices, p.devicesChosen, p.concurrency, p.tokensPerSecondPerUser,
                                       p.tokensPerSecondPerUserRange.low, p.tokensPerSecondPerUserRange.high,
                                       p.ttftSeconds, p.aggregateTokensPerSecond, knownOrEmpty(p.powerWatts),
                                       knownOrEmpty(p.joulesPerToken), q(p.profile), notes.join(QStringLiteral("; "))});
        if (!models.contains(q(p.modelId)))
            models.append(q(p.modelId));
        for (const HardwareSpec& spec : hardware) {
            if (spec.id != p.hardwareId)
                continue;
            QJsonObject sources;
            for (const auto& [field, citation] : spec.sources)
                sources.insert(q(field), q(citation));
            table.sources.insert(q(spec.id), sources);
        }
    }
    table.inputs = workloadJson(workload);
    table.inputs.insert(QStringLiteral("models"), models);
    return table;
}

DataTable PredictionTables::breakdown(const Prediction& p)
{
    DataTable table;
    table.name = QStringLiteral("phase_breakdown");
    table.columns = {"phase", "seconds_per_token", "share"};
    double total = 0;
    for (const PhaseTime& phase : p.breakdown)
        total += phase.seconds;
    for (const PhaseTime& phase : p.breakdown)
        table.rows.append(QVariantList{q(phase.id), phase.seconds, total > 0 ? phase.seconds / total : 0.0});
    table.inputs = QJsonObject{{"model", q(p.modelId)},   {"hardware", q(p.hardwareId)},
                               {"devices", p.devices},    {"concurrency", p.concurrency},
                               {"profile", q(p.profile)}, {"seconds_per_token", p.secondsPerToken}};
    return table;
}

DataTable PredictionTables::schedule(const TokenSchedule& s)
{
    DataTable table;
    table.name = QStringLiteral("token_schedule");
    table.columns = {"phase",       "layer",     "device",           "x",
                     "y",           "width",     "height",           "computes",
                     "start_cycle", "end_cycle", "duration_seconds", "macs_per_core",
                     "reductions"};
    for (const Phase& phase : s.phases)
        table.rows.append(QVariantList{QString::fromLatin1(phaseKindId(phase.kind)), phase.layer, phase.device,
                                       phase.rect.x, phase.rect.y, phase.rect.width, phase.rect.height, phase.computes,
                                       phase.startCycle, phase.endCycle, phase.durationCycles() / s.clockHz,
                                       phase.macsPerCore, phase.reductions});
    table.inputs = QJsonObject{{"clock_hz", s.clockHz},           {"total_cycles", s.totalCycles},
                               {"token_seconds", s.seconds()},    {"compute_cycles", s.computeCycles},
                               {"reduce_cycles", s.reduceCycles}, {"hop_cycles", s.hopCycles}};
    return table;
}

} // namespace ws
