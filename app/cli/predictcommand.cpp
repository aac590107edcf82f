// waferscope-cli predict: decode speed of a model on a hardware preset (wafer,
// GPU or LPU), with a per-phase breakdown and an uncertainty range.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/layoutfile.h"
#include "app/cli/predictjson.h"
#include "app/cli/specoptions.h"
#include "app/cli/targetoutput.h"
#include "app/common/presetlibrary.h"

#include "engine/calibration/calibrationprofile.h"
#include "engine/calibration/stackprofile.h"
#include "engine/predict/predictor.h"
#include "engine/predict/speculative.h"
#include "engine/predict/stackkernel.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <cstdio>

namespace ws::cli {

namespace {
constexpr SpecOptions kPredictOptions = SpecOption::Model | SpecOption::Hardware | SpecOption::AnyHardware |
                                        SpecOption::Devices | SpecOption::Precision | SpecOption::Context |
                                        SpecOption::Batch | SpecOption::Lengths | SpecOption::Defects | SpecOption::Kv |
                                        SpecOption::Experts;

// The speculative decoding a prediction ran with, and the defaults with their sources.
QJsonObject speculativeJson(const SpeculativeDecoding& s, const SpeculativeDefaults& d)
{
    QJsonObject o{{QStringLiteral("enabled"), s.enabled},
                  {QStringLiteral("tokens_per_step"), s.tokensPerStep},
                  {QStringLiteral("acceptance_rate"), s.acceptanceRate},
                  {QStringLiteral("expected_tokens_per_step"), s.enabled ? s.expectedTokensPerStep() : 1.0},
                  {QStringLiteral("vendor_uses"), d.vendorUses},
                  {QStringLiteral("sources"),
                   QJsonObject{{QStringLiteral("vendor"), QString::fromStdString(d.vendorSource)},
                               {QStringLiteral("tokens_per_step"), QString::fromStdString(d.tokensPerStepSource)},
                               {QStringLiteral("acceptance_rate"), QString::fromStdString(d.acceptanceRateSource)}}}};
    if (s.enabled)
        o.insert(QStringLiteral("draft_model"),
                 s.draftModel ? QJsonValue(QString::fromStdString(s.draftModel->id)) : QJsonValue(QJsonValue::Null));
    if (s.enabled && !s.draftModel)
        o.insert(QStringLiteral("draft_cost_fraction"), s.draftCostFraction);
    return o;
}

QJsonObject profileJson(const CalibrationProfile& p)
{
    QJsonArray constants;
    for (const ParamInfo& c : p.constants)
        constants.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(c.name)},
                                     {QStringLiteral("label"), QString::fromStdString(c.label)},
                                     {QStringLiteral("unit"), QString::fromStdString(c.unit)},
                                     {QStringLiteral("value"), c.value},
                                     {QStringLiteral("fitted"), c.fitted},
                                     {QStringLiteral("source"), QString::fromStdString(c.source)},
                                     {QStringLiteral("description"), QString::fromStdString(c.description)}});
    QJsonArray rows;
    for (const CalibrationRow& r : p.rows)
        rows.append(QJsonObject{{QStringLiteral("label"), QString::fromStdString(r.label)},
                                {QStringLiteral("metric"), QString::fromStdString(r.metric)},
                                {QStringLiteral("observed"), r.observed},
                                {QStringLiteral("predicted"), r.predicted},
                                {QStringLiteral("relative_residual"), r.relativeResidual},
                                {QStringLiteral("fitted"), r.fitted},
                                {QStringLiteral("note"), QString::fromStdString(r.note)}});
    return QJsonObject{{QStringLiteral("id"), QString::fromStdString(p.id)},
                       {QStringLiteral("kind"), QString::fromStdString(p.kind)},
                       {QStringLiteral("description"), QString::fromStdString(p.description)},
                       {QStringLiteral("source"), QString::fromStdString(p.source)},
                       {QStringLiteral("rms_relative_residual"), p.rmsRelativeResidual},
                       {QStringLiteral("max_abs_relative_residual"), p.maxAbsRelativeResidual},
                       {QStringLiteral("constants"), constants},
                       {QStringLiteral("rows"), rows}};
}
} // namespace

int runPredict(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Predict decode speed of a model on a hardware preset."));
    parser.addHelpOption();
    addSpecOptions(parser, kPredictOptions);
    parser.addOptions({
        {QStringLiteral("speculative"),
         QStringLiteral("Speculative decoding on with the sourced defaults (k, acceptance) and the default draft (the "
                        "smallest preset of the model's family and vocabulary); --speculative-tokens, --acceptance and "
                        "--draft change them.")},
        {QStringLiteral("speculative-tokens"), QStringLiteral("Speculative decoding: draft tokens per step (0 = off)."),
         QStringLiteral("K")},
        {QStringLiteral("acceptance"),
         QStringLiteral("Speculative decoding: acceptance rate (default 0.7, see predict --json speculative.sources)."),
         QStringLiteral("A")},
        {QStringLiteral("draft"), QStringLiteral("Speculative decoding: draft model preset or file."),
         QStringLiteral("PRESET|FILE")},
        {QStringLiteral("draft-cost"),
         QStringLiteral("Without --draft: a draft token's cost as a fraction of a target token (default 0.1)."),
         QStringLiteral("F")},
        {QStringLiteral("layout"),
         QStringLiteral(
             "Wafers: place exactly this layout (from place --layout-out); its precisions and fill place the model."),
         QStringLiteral("FILE")},
        {QStringLiteral("profiles"),
         QStringLiteral("Print the shipped calibration profiles with their fits, as JSON, and exit.")},
        {QStringLiteral("fit"),
         QStringLiteral("Fit a calibration profile to a measurement file (resources/measurements format), print it as "
                        "JSON and exit."),
         QStringLiteral("FILE")},
        {QStringLiteral("as-of"),
         QStringLiteral("Predict with the serving stacks public at this month, YYYY-MM (default: the latest); see "
                        "resources/measurements/stacks.json."),
         QStringLiteral("YYYY-MM")},
        {QStringLiteral("stack-speculative"),
         QStringLiteral("Speculative decoding as the serving stack runs it: where it is not known whether it ran (a "
                        "published figure), a stack that runs it switches it on. Without it, as everywhere in the "
                        "app, a scenario decodes speculatively only when it says so (--speculative).")},
        {QStringLiteral("target-tokens-per-second"),
         QStringLiteral("What it would take to reach N tokens/s per user: kernel efficiency, speculative decoding "
                        "(k, acceptance, a one-layer draft) and devices, each predicted under its ceilings."),
         QStringLiteral("N")},
        {QStringLiteral("json"), QStringLiteral("Print JSON.")},
    });
    if (!parseArgs(parser, QStringLiteral("predict"), args))
        return kExitBadInput;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return kExitOk;
    }
    if (parser.isSet(QStringLiteral("profiles"))) {
        QJsonArray all;
        for (const CalibrationProfile& p : shippedProfiles())
            all.append(profileJson(p));
        printJson(QJsonObject{{QStringLiteral("profiles"), all}});
        return kExitOk;
    }
    if (parser.isSet(QStringLiteral("fit"))) {
        QFile file(parser.value(QStringLiteral("fit")));
        if (!file.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("%1: cannot open: %2").arg(file.fileName(), file.errorString()));
        auto profile = fitProfile(file.readAll().toStdString());
        if (!profile)
            return fail(
                QStringLiteral("%1: %2").arg(file.fileName(), QString::fromStdString(profile.error().message())));
        printJson(profileJson(*profile));
        return kExitOk;
    }
    auto spec = specFromOptions(parser, QStringLiteral("predict"), kPredictOptions);
    if (!spec)
        return kExitBadInput;
    const auto specTokens = intOption(parser, QStringLiteral("speculative-tokens"), 0, 0, 64);
    const auto acceptance = doubleOption(parser, QStringLiteral("acceptance"), 0.7, 0.0, 1.0);
    const auto draftCost = doubleOption(parser, QStringLiteral("draft-cost"), 0.1, 0.0, 10.0);
    if (!specTokens || !acceptance || !draftCost)
        return kExitBadInput;
    PredictOptions options;
    if (parser.isSet(QStringLiteral("as-of"))) {
        const QString asOf = parser.value(QStringLiteral("as-of"));
        const auto month = parseYearMonth(asOf.toStdString());
        if (!month || !QRegularExpression(QStringLiteral("^\\d{4}-(0[1-9]|1[0-2])$")).match(asOf).hasMatch())
            return fail(QStringLiteral("--as-of must be a month YYYY-MM, got '%1'").arg(asOf));
        options.asOf = *month;
    }
    const PresetLibrary library;
    const ModelConfig* model = &spec->model;
    const HardwareSpec* hardware = &spec->hardware;
    Workload& w = spec->workload;
    const SpeculativeDefaults specDefaults = speculativeDefaults(*hardware);
    const bool specOn = *specTokens > 0 || parser.isSet(QStringLiteral("speculative"));
    if (specOn) {
        w.speculative.enabled = true;
        w.speculative.tokensPerStep = *specTokens > 0 ? int(*specTokens) : specDefaults.tokensPerStep;
        w.speculative.acceptanceRate =
            parser.isSet(QStringLiteral("acceptance")) ? *acceptance : specDefaults.acceptanceRate;
        w.speculative.draftCostFraction = *draftCost;
        if (parser.isSet(QStringLiteral("draft"))) {
            auto draft = library.resolveModel(parser.value(QStringLiteral("draft")));
            if (!draft)
                return fail(QString::fromStdString(draft.error().message()));
            w.speculative.draftModel = *draft;
        } else if (parser.isSet(QStringLiteral("speculative"))) {
            std::vector<ModelConfig> candidates;
            for (const QString& id : library.modelIds())
                if (auto m = library.model(id))
                    candidates.push_back(*m);
            if (const ModelConfig* draft = defaultDraftModel(*model, candidates))
                w.speculative.draftModel = *draft;
        }
    } else if (parser.isSet(QStringLiteral("draft")) || parser.isSet(QStringLiteral("acceptance"))) {
        return fail(QStringLiteral("--draft and --acceptance need --speculative or --speculative-tokens K (K >= 1)"));
    } else {
        // Not said: off, as the window, the comparison and the explorer predict a scenario; with
        // --stack-speculative the serving stack decides, as the accuracy command does for a published figure.
        w.speculativeUnknown = parser.isSet(QStringLiteral("stack-speculative"));
    }

    if (parser.isSet(QStringLiteral("layout"))) {
        if (hardware->kind != HardwareKind::Wafer)
            return fail(QStringLiteral("--layout needs wafer hardware; '%1' is not a wafer")
                            .arg(QString::fromStdString(hardware->id)));
        QString error;
        spec->layout = readLayoutFile(parser.value(QStringLiteral("layout")), &error);
        if (!spec->layout)
            return fail(error);
        if (parser.isSet(QStringLiteral("precision")) && w.precision != spec->layout->precisions.attention)
            return fail(
                QStringLiteral("--precision differs from the layout's; the layout's precisions place the model"));
        w.precision = spec->layout->precisions.attention;
    }

    QJsonArray notes;
    if (spec->defects.any() && hardware->kind != HardwareKind::Wafer) {
        notes.append(QStringLiteral("--defect-rate applies to wafers only; ignored for %1")
                         .arg(QString::fromStdString(hardware->id)));
        spec->defects = {};
    }

    if (parser.isSet(QStringLiteral("target-tokens-per-second"))) {
        const auto target = doubleOption(parser, QStringLiteral("target-tokens-per-second"), 0, 1e-3, 1e9);
        if (!target)
            return kExitBadInput;
        return printTarget(*model, *hardware, w, predictOptions(*spec, options), *target,
                           parser.isSet(QStringLiteral("json")));
    }
    // The stack's speculative decoding in the workload itself, so the JSON shows what the prediction ran.
    if (const StackProfile* stack = speculationStack(*hardware, *model, w.concurrency, options.asOf);
        stack && w.speculativeUnknown)
        applyStackSpeculation(w, *stack, *model, *hardware);
    auto result = predict(*spec, options);
    if (!result)
        return fail(QString::fromStdString(result.error().message()));
    const Prediction& p = *result;
    for (const std::string& n : p.notes)
        notes.append(QString::fromStdString(n));

    if (!parser.isSet(QStringLiteral("json"))) {
        std::printf("%s on %d x %s (%s, profile %s%s%s)%s\n", model->name.c_str(), p.devices, hardware->id.c_str(),
                    std::string(precisionId(w.precision)).c_str(), p.profile.c_str(), p.stack.empty() ? "" : ", stack ",
                    p.stack.c_str(), p.devicesChosen ? " - the fewest devices that hold the model" : "");
        std::printf("%.1f tokens/s per user (range %.1f to %.1f), time to first token %.1f ms\n",
                    p.tokensPerSecondPerUser, p.tokensPerSecondPerUserRange.low, p.tokensPerSecondPerUserRange.high,
                    1e3 * p.ttftSeconds);
        std::printf("%.1f tokens/s aggregate at %d concurrent requests\n", p.aggregateTokensPerSecond, p.concurrency);
        if (p.cost.known)
            std::printf("$%.3g per million output tokens (range %.3g to %.3g) at $%.4g an hour\n",
                        p.cost.usdPerMillionTokens, p.cost.usdPerMillionTokensRange.low,
                        p.cost.usdPerMillionTokensRange.high, p.cost.hourlyUsd);
        std::printf("ceiling %.1f tokens/s per user (%s bound)\n", p.ceiling.tokensPerSecondPerUser,
                    p.ceiling.bound.c_str());
        if (!p.ceiling.gap.empty())
            std::printf("  %s\n", p.ceiling.gap.c_str());
        if (p.floor.seconds > 0) {
            std::printf("floor %.4f ms per token (%.1f tokens/s per user)%s: %s\n", 1e3 * p.floor.seconds,
                        1.0 / p.floor.seconds, p.floor.binds ? ", sets the point" : "", p.floor.formula.c_str());
            for (const FloorComponent& f : p.floor.components)
                std::printf("  floor %-24s %10.4f ms  %s\n", f.id.c_str(), 1e3 * f.seconds, f.source.c_str());
        }
        for (const RangeDriver& d : p.rangeDrivers)
            std::printf("  range driver %-24s %g..%g %s: %.1f to %.1f tokens/s (x%.2f, %.0f %% of the range)\n",
                        d.input.c_str(), d.low, d.high, d.unit.c_str(), d.tokensPerSecondAtLow, d.tokensPerSecondAtHigh,
                        d.effect, 100.0 * d.share);
        std::printf("time per token by phase:\n");
        for (const auto& b : p.breakdown)
            std::printf("  %-20s %10.4f ms  %5.1f %%\n", b.id.c_str(), 1e3 * b.seconds,
                        100.0 * b.seconds / p.secondsPerToken);
        for (const auto& n : notes)
            std::printf("note: %s\n", qPrintable(n.toString()));
        return kExitOk;
    }
    QJsonObject out = predictionJson(*model, *hardware, w, p, notes);
    QJsonObject speculative = speculativeJson(w.speculative, specDefaults);
    if (w.speculative.enabled) {
        ScenarioSpec plainSpec = *spec;
        plainSpec.workload.speculative.enabled = false;
        plainSpec.devices = p.devices;
        if (auto plain = predict(plainSpec, options)) {
            const SpeculativeEffect e = speculativeEffect(p, *plain, w.speculative);
            speculative.insert(QStringLiteral("plain_tokens_per_second_per_user"), plain->tokensPerSecondPerUser);
            speculative.insert(QStringLiteral("draft_target_tokens"), e.draftTargetTokens);
            speculative.insert(QStringLiteral("verify_target_tokens"), e.verifyTargetTokens);
            speculative.insert(QStringLiteral("speedup"), e.speedup);
        }
    }
    if (p.draftCores > 0) { // a wafer: the draft model's own cores, a strip beside the target or its own wafer
        speculative.insert(QStringLiteral("draft_home"), QString::fromStdString(p.draftHome));
        speculative.insert(QStringLiteral("draft_columns"), p.draftColumns);
        speculative.insert(QStringLiteral("devices"), p.devices);
        speculative.insert(QStringLiteral("draft_cores"), double(p.draftCores));
        speculative.insert(QStringLiteral("usable_cores_per_device"), double(p.usableCoresPerDevice));
        speculative.insert(QStringLiteral("draft_seconds_per_step"), p.draftSecondsPerStep);
    }
    out.insert(QStringLiteral("speculative"), speculative);
    printJson(out);
    return kExitOk;
}

} // namespace ws::cli
