#include "engine/calibration/gpucalibration.h"

#include "engine/calibration/leastsquares.h"
#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"
#include "engine/calibration/stackprofile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace ws {

namespace {

struct Row
{
    CalibrationRow report;
    const ModelConfig* model = nullptr;
    const HardwareSpec* hardware = nullptr;
    GpuStep step;
    double observedStepS = 0;
};

Expected<Row> parseRow(const nlohmann::json& r, const std::string& where)
{
    if (!r.is_object())
        return makeError(ErrorCode::Format, "a row must be an object", where);
    if (Status ok = integerFieldsFit(r, where); !ok)
        return ok.error();
    Row row;
    try {
        row.report.label = r.value("label", std::string());
        const std::string modelId = r.at("model").get<std::string>();
        const std::string hwId = r.at("hardware").get<std::string>();
        row.model = shippedModel(modelId);
        if (!row.model)
            return makeError(ErrorCode::NotFound, "unknown model preset '" + modelId + "'", where + "model");
        row.hardware = shippedHardware(hwId);
        if (!row.hardware || row.hardware->kind != HardwareKind::Gpu)
            return makeError(ErrorCode::NotFound, "unknown GPU preset '" + hwId + "'", where + "hardware");
        row.step.gpus = r.at("gpus").get<int>();
        row.step.concurrency = r.value("concurrency", 1);
        auto precision = parsePrecision(r.value("precision", std::string("bf16")));
        if (!precision)
            return makeError(ErrorCode::Format, "unknown precision", where + "precision");
        row.step.precision = *precision;
        row.step.kvBytesPerValue = r.value("kv_bytes_per_value", 2);
        if (row.step.kvBytesPerValue != 1 && row.step.kvBytesPerValue != 2 && row.step.kvBytesPerValue != 4)
            return makeError(ErrorCode::Format, "KV bytes per value must be 1, 2 or 4", where + "kv_bytes_per_value");
        if (r.contains("context")) {
            row.step.context = r.at("context").get<int64_t>();
        } else {
            const double prompt = r.at("prompt").get<double>();
            const double output = r.at("output").get<double>();
            if (!(prompt >= 0) || !(output > 0))
                return makeError(ErrorCode::Format, "prompt and output must be positive", where + "output");
            if (!(prompt + output / 2 < 9223372036854775808.0)) // the mean context must fit int64_t (1e86 did not)
                return makeError(ErrorCode::Format, "prompt + output / 2 must be below 2^63", where + "prompt");
            row.step.context = int64_t(prompt + output / 2); // mean context over the answer
            row.step.prefillPerOutput = continuousBatchPrefill(prompt, output, row.step.concurrency);
        }
        if (row.step.gpus <= 0 || row.step.concurrency <= 0 || row.step.context <= 0)
            return makeError(ErrorCode::Format, "gpus, concurrency and context must be positive", where);
        if (row.step.context > kMaxMeasuredContext)
            return makeError(ErrorCode::Format, "context must be at most 2^30 tokens", where + "context");
        if (r.contains("tokens_per_second_per_user")) {
            row.report.metric = "tokens_per_second_per_user";
            row.report.observed = r.at("tokens_per_second_per_user").get<double>();
            row.observedStepS = 1.0 / row.report.observed;
        } else {
            row.report.metric = "aggregate_tokens_per_second";
            row.report.observed = r.at("aggregate_tokens_per_second").get<double>();
            row.observedStepS = row.step.concurrency / row.report.observed;
        }
        if (!(row.report.observed > 0) || !std::isfinite(row.report.observed))
            return makeError(ErrorCode::Format, "speed must be positive", where + row.report.metric);
        row.report.fitted = r.value("fit", true);
        row.report.note = r.value("why_not_fitted", r.value("assumption", std::string()));
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorCode::Format, std::string("missing or wrong field: ") + e.what(), where);
    }
    return row;
}

} // namespace

static Expected<GpuCalibration> fitGpuProfileUnguarded(const std::string& jsonText, GpuEfficiency defaults,
                                                       const std::vector<GpuCalibration>* bases)
{
    const nlohmann::json j = nlohmann::json::parse(jsonText, nullptr, false);
    const auto header = readMeasurementHeader(j, "gpu");
    if (!header)
        return header.error();
    GpuCalibration c;
    c.profile.id = header->id;
    c.profile.kind = "gpu";
    c.profile.source = header->source;
    c.profile.description = header->description;
    static const char* const names[5] = {"memory_time_factor", "compute_time_factor", "layer_overhead_s",
                                         "allreduce_step_s", "inter_node_step_s"};
    std::string base;
    if (j.contains("base_profile")) {
        if (!j.at("base_profile").is_string())
            return makeError(ErrorCode::Format, "base_profile must be a profile id", "base_profile");
        base = j.at("base_profile").get<std::string>();
        const auto& pool = bases ? *bases : shippedGpuCalibrations();
        const auto it =
            std::find_if(pool.begin(), pool.end(), [&](const GpuCalibration& b) { return b.profile.id == base; });
        if (it == pool.end() || base == c.profile.id)
            return makeError(ErrorCode::NotFound, "base profile '" + base + "' is not a shipped GPU profile",
                             "base_profile");
        defaults = it->efficiency;
    }
    bool fittable[5] = {true, true, true, true, true};
    if (j.contains("fit_constants")) {
        const auto& list = j.at("fit_constants");
        if (!list.is_array() || list.empty())
            return makeError(ErrorCode::Format, "fit_constants must list constants", "fit_constants");
        std::fill(std::begin(fittable), std::end(fittable), false);
        for (const auto& name : list) {
            const auto at = std::find(std::begin(names), std::end(names),
                                      name.is_string() ? name.get<std::string>() : std::string());
            if (at == std::end(names))
                return makeError(ErrorCode::Format,
                                 "fit_constants: unknown constant (memory_time_factor, compute_time_factor, "
                                 "layer_overhead_s, allreduce_step_s or inter_node_step_s)",
                                 "fit_constants");
            fittable[at - std::begin(names)] = true;
        }
    }
    if (j.contains("moe_only") && !j.at("moe_only").is_boolean())
        return makeError(ErrorCode::Format, "moe_only must be true or false", "moe_only");
    c.moeOnly = j.value("moe_only", false);
    if (j.contains("applies_to_hardware")) {
        const auto& list = j.at("applies_to_hardware");
        if (!list.is_array() || list.empty())
            return makeError(ErrorCode::Format, "applies_to_hardware must list GPU presets", "applies_to_hardware");
        for (const auto& id : list) {
            const HardwareSpec* hw = id.is_string() ? shippedHardware(id.get<std::string>()) : nullptr;
            if (!hw || hw->kind != HardwareKind::Gpu)
                return makeError(ErrorCode::NotFound, "applies_to_hardware: not a GPU preset", "applies_to_hardware");
            c.appliesTo.push_back(hw->id);
        }
    }
    const std::string allreduce = j.value("allreduce", std::string("ring"));
    if (allreduce != "ring" && allreduce != "multishot")
        return makeError(ErrorCode::Format, "allreduce must be \"ring\" or \"multishot\"", "allreduce");
    std::vector<Row> rows;
    for (size_t i = 0; i < j["rows"].size(); ++i) {
        auto row = parseRow(j["rows"][i], "rows[" + std::to_string(i) + "].");
        if (!row)
            return row.error();
        row->step.multiShotAllReduce = allreduce == "multishot";
        rows.push_back(*row);
        if (std::find(c.hardwareIds.begin(), c.hardwareIds.end(), row->hardware->id) == c.hardwareIds.end())
            c.hardwareIds.push_back(row->hardware->id);
    }
    // Columns: memory, compute, layers, intra-node steps, inter-node steps. Unexercised ones keep defaults.
    std::vector<GpuStepTerms> terms;
    for (const Row& r : rows)
        terms.push_back(gpuStepTerms(*r.model, r.hardware->gpu, r.step));
    auto column = [](const GpuStepTerms& t, int k) {
        switch (k) {
        case 0:
            return t.memory;
        case 1:
            return t.compute;
        case 2:
            return t.layers;
        case 3:
            return t.intraSteps;
        default:
            return t.interSteps;
        }
    };
    GpuEfficiency e = defaults;
    e.multiShotAllReduce = allreduce == "multishot";
    double* constants[5] = {&e.memoryTimeFactor, &e.computeTimeFactor, &e.layerOverheadS, &e.allreduceStepS,
                            &e.interNodeStepS};
    const double lowerBound[5] = {1.0, 1.0, 0.0, 0.0, 0.0}; // efficiencies at most 100 %, times not negative
    const double probe[5] = {1.0, 1.0, 20e-6, 5e-6, 20e-6}; // typical sizes, to judge what the rows can see
    // A constant is fitted only when its term, at a typical size, is at least 5 % of some
    // measured step; otherwise the rows cannot tell it apart and it keeps its default.
    std::vector<int> free;
    std::vector<int> atBound;
    for (int k = 0; k < 5; ++k) {
        bool used = false;
        for (size_t i = 0; i < rows.size() && fittable[k]; ++i)
            used |= rows[i].report.fitted && column(terms[i], k) * probe[k] >= 0.05 * rows[i].observedStepS;
        if (used)
            free.push_back(k);
    }
    // Bounded least squares by active set: a constant that leaves its physical range is held at
    // its bound and the others are fitted again; dependent columns drop the least identifiable
    // constant (network step, ring step, layer overhead, compute, memory), which keeps its default.
    for (;;) {
        if (free.empty())
            break;
        std::vector<std::vector<double>> x;
        std::vector<double> y;
        bool impossible = false;
        for (size_t i = 0; i < rows.size(); ++i) {
            if (!rows[i].report.fitted)
                continue;
            double fixed = terms[i].link;
            for (int k = 0; k < 5; ++k)
                if (std::find(free.begin(), free.end(), k) == free.end())
                    fixed += column(terms[i], k) * *constants[k];
            std::vector<double> xi;
            for (int k : free)
                xi.push_back(column(terms[i], k));
            x.push_back(xi);
            y.push_back(rows[i].observedStepS - fixed);
            impossible |= y.back() <= 0;
        }
        if (impossible)
            return makeError(ErrorCode::OutOfRange, "a row is faster than the hardware allows", "rows");
        auto fit = fitLeastSquares(x, y);
        if (!fit) {
            free.pop_back();
            continue;
        }
        int worst = -1;
        double worstBy = 0;
        for (size_t f = 0; f < free.size(); ++f) {
            const double by = lowerBound[free[f]] - fit->coefficients[f];
            if (by > worstBy) {
                worstBy = by;
                worst = int(f);
            }
        }
        if (worst < 0) {
            for (size_t f = 0; f < free.size(); ++f)
                *constants[free[f]] = fit->coefficients[f];
            break;
        }
        *constants[free[size_t(worst)]] = lowerBound[free[size_t(worst)]];
        atBound.push_back(free[size_t(worst)]);
        free.erase(free.begin() + worst);
    }
    c.efficiency = e;
    c.profile.constants = describe(e, c.profile.id);
    for (int k = 0; k < 5; ++k)
        if (std::find(atBound.begin(), atBound.end(), k) != atBound.end()) {
            c.profile.constants[size_t(k)].source = "fitted at its physical bound: " + c.profile.id;
        } else if (std::find(free.begin(), free.end(), k) == free.end()) {
            c.profile.constants[size_t(k)].fitted = false;
            c.profile.constants[size_t(k)].source =
                !base.empty() ? "from " + base + " (" +
                                    (fittable[k] ? "the measurements of this profile cannot "
                                                   "determine it"
                                                 : "this profile fits only its fit_constants") +
                                    ")"
                              : "default (the measurements of this profile cannot determine it)";
        }
    double sumSq = 0;
    int n = 0;
    c.singleStream = true;
    for (size_t i = 0; i < rows.size(); ++i) {
        CalibrationRow r = rows[i].report;
        if (r.fitted && rows[i].step.concurrency != 1)
            c.singleStream = false;
        const double step = terms[i].seconds(e);
        r.predicted = r.metric == "tokens_per_second_per_user" ? 1.0 / step : rows[i].step.concurrency / step;
        r.relativeResidual = (r.predicted - r.observed) / r.observed;
        if (r.fitted) {
            sumSq += r.relativeResidual * r.relativeResidual;
            ++n;
            c.profile.maxAbsRelativeResidual = std::max(c.profile.maxAbsRelativeResidual, std::abs(r.relativeResidual));
        }
        c.profile.rows.push_back(r);
    }
    c.profile.rmsRelativeResidual = n > 0 ? std::sqrt(sumSq / n) : 0;
    return c;
}

namespace {
struct ShippedGpu
{
    std::vector<GpuCalibration> fitted;
    std::vector<Error> errors; // a shipped file that failed to fit, naming it
};

const ShippedGpu& shippedGpu()
{
    static const ShippedGpu all = [] {
        ShippedGpu out;
        for (const char* name : {"gpu-a100-sglang.json", "gpu-trtllm-h200.json", "gpu-oci-serving.json",
                                 "gpu-serving-batch1.json", "gpu-trtllm-b200-latency.json"}) {
            // A file's base profile is one listed before it.
            auto c = fitGpuProfile(std::string(embeddedMeasurement(name)), {}, &out.fitted);
            if (c) {
                out.fitted.push_back(*c);
            } else {
                Error e = c.error();
                e.file = name;
                out.errors.push_back(std::move(e));
            }
        }
        return out;
    }();
    return all;
}
} // namespace

const std::vector<GpuCalibration>& shippedGpuCalibrations()
{
    return shippedGpu().fitted;
}

const std::vector<Error>& shippedGpuCalibrationErrors()
{
    return shippedGpu().errors;
}

const GpuCalibration* gpuCalibrationFor(const std::string& hardwareId, int concurrency, std::optional<int> asOf,
                                        bool moe)
{
    const auto& all = shippedGpuCalibrations();
    auto has = [&](const std::vector<std::string>& ids) {
        return std::find(ids.begin(), ids.end(), hardwareId) != ids.end();
    };
    auto measuredOn = [&](const GpuCalibration& c) { return !c.moeOnly && has(c.hardwareIds); };
    auto publicBy = [&](const GpuCalibration& c, bool dated) {
        return !dated || !gpuProfileAfter(c.profile.id, *asOf);
    };
    const bool single = concurrency == 1;
    if (moe && single)
        for (const auto& c : all)
            if (c.moeOnly && (has(c.appliesTo) || has(c.hardwareIds)) && publicBy(c, asOf.has_value()))
                return &c;
    for (bool dated : {asOf.has_value(), false}) {
        // Measured on this GPU: single-stream profiles first at batch 1, batched ones first otherwise.
        for (bool wantSingle : {single, !single})
            for (const auto& c : all)
                if (c.singleStream == wantSingle && measuredOn(c) && publicBy(c, dated))
                    return &c;
        // Another GPU: the newest stack measured the same way (batch 1: current serving stacks).
        for (const char* id : {single ? "gpu-serving-batch1" : "gpu-trtllm-h200", "gpu-trtllm-h200"})
            for (const auto& c : all)
                if (c.profile.id == id && publicBy(c, dated))
                    return &c;
    }
    return all.empty() ? nullptr : &all.front();
}

Expected<GpuCalibration> fitGpuProfile(const std::string& jsonText, const GpuEfficiency& defaults,
                                       const std::vector<GpuCalibration>* bases)
{
    return guardedRead([&] { return fitGpuProfileUnguarded(jsonText, defaults, bases); });
}

} // namespace ws
