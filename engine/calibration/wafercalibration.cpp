#include "engine/calibration/wafercalibration.h"

#include "engine/calibration/measurementdata.h"
#include "engine/calibration/measurementjson.h"
#include "engine/wafer/dataflow/schedule.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

namespace ws {

namespace {

int roundUp(int v, int multiple)
{
    return multiple > 0 ? ((v + multiple - 1) / multiple) * multiple : v;
}

// The kernel's benchmark config: dims rounded up to multiples of P, one head as wide as the model.
ModelConfig kernelModel(const WaferKernelMeasurement& row)
{
    ModelConfig m;
    m.id = row.model;
    m.layers = 1;
    m.hiddenSize = roundUp(row.hidden, row.grid);
    m.ffnSize = roundUp(row.ffn, row.grid);
    m.headCount = 1;
    m.kvHeadCount = 1;
    m.headDim = m.hiddenSize;
    m.vocabSize = 1;
    return m;
}

template <typename T> Expected<T> field(const nlohmann::json& j, const char* key, const std::string& where)
{
    if (!j.contains(key))
        return makeError(ErrorCode::Format, "missing field", where + key);
    if constexpr (std::is_integral_v<T>) { // get<int>() of a float past int's range is undefined (1e86)
        const nlohmann::json& v = j.at(key);
        if (v.is_number_float() && !(std::fabs(v.get<double>()) < std::ldexp(1.0, std::numeric_limits<T>::digits)))
            return makeError(ErrorCode::Format, "too large", where + key);
    }
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception&) {
        return makeError(ErrorCode::Format, "wrong type", where + key);
    }
}

} // namespace

static Expected<WaferKernelSet> parseWaferKernelSetUnguarded(const std::string& jsonText)
{
    nlohmann::json j = nlohmann::json::parse(jsonText, nullptr, false);
    const auto header = readMeasurementHeader(j, "wafer-kernel", {.emptyRowsAllowed = true});
    if (!header)
        return header.error();
    WaferKernelSet set;
    set.id = header->id;
    set.source = header->source;
    set.clockHz = j.value("clock_hz", 1.1e9);
    if (!(set.clockHz > 0))
        return makeError(ErrorCode::Format, "clock must be positive", "clock_hz");
    int i = 0;
    for (const auto& r : j["rows"]) {
        const std::string where = "rows[" + std::to_string(i++) + "].";
        if (!r.is_object())
            return makeError(ErrorCode::Format, "a row must be an object", where);
        WaferKernelMeasurement m;
        auto model = field<std::string>(r, "model", where);
        auto hidden = field<int>(r, "hidden", where);
        auto ffn = field<int>(r, "ffn", where);
        auto layers = field<int>(r, "layers", where);
        auto context = field<int64_t>(r, "context", where);
        auto grid = field<int>(r, "grid", where);
        auto tps = field<double>(r, "tokens_per_second", where);
        for (const Error* e :
             {model ? nullptr : &model.error(), hidden ? nullptr : &hidden.error(), ffn ? nullptr : &ffn.error(),
              layers ? nullptr : &layers.error(), context ? nullptr : &context.error(), grid ? nullptr : &grid.error(),
              tps ? nullptr : &tps.error()})
            if (e)
                return *e;
        m.model = *model;
        m.hidden = *hidden;
        m.ffn = *ffn;
        m.layers = *layers;
        m.context = *context;
        m.grid = *grid;
        m.tokensPerSecond = *tps;
        if (m.hidden <= 0 || m.ffn <= 0 || m.layers <= 0 || m.context <= 0 || m.context > kMaxMeasuredContext ||
            m.grid <= 0 || !(m.tokensPerSecond > 0) || !std::isfinite(m.tokensPerSecond))
            return makeError(ErrorCode::Format, "values must be positive", where);
        set.rows.push_back(m);
    }
    return set;
}

double waferKernelLayerCycles(const WaferKernelMeasurement& row, const TimingParams& params)
{
    const ModelConfig m = kernelModel(row);
    ScheduleRegions layout;
    layout.meshCols = row.grid;
    layout.meshRows = row.grid;
    layout.layers.push_back({0, {0, 0, row.grid, row.grid}});
    ScheduleOptions options;
    options.context = roundUp(int(row.context), row.grid);
    options.layersOnly = true;
    return buildTokenSchedule(m, layout, TimingModel(params), options).totalCycles;
}

Expected<WaferCalibration> fitWaferTiming(const WaferKernelSet& set, const TimingParams& base)
{
    if (set.rows.empty())
        return makeError(ErrorCode::InvalidArgument, "no measurements to fit", "rows");
    TimingParams p0 = base;
    p0.clockHz = set.clockHz;
    // The schedule is linear in (macCycles, allreduceFixedCycles, routingStageCycles):
    // evaluate it at unit basis values to get each measurement's design row.
    auto with = [&](double mac, double fixed, double stage) {
        TimingParams p = p0;
        p.macCycles = mac;
        p.allreduceFixedCycles = fixed;
        p.routingStageCycles = stage;
        return p;
    };
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    for (const auto& row : set.rows) {
        const double k = waferKernelLayerCycles(row, with(0, 0, 0));
        const double mac = waferKernelLayerCycles(row, with(1, 0, 0)) - k;
        const double fixed = waferKernelLayerCycles(row, with(0, 1, 0)) - k;
        const double stage = waferKernelLayerCycles(row, with(0, 0, 1)) - k;
        const double observed = set.clockHz / (row.tokensPerSecond * row.layers);
        if (observed <= k)
            return makeError(ErrorCode::OutOfRange, "measurement " + row.model + " at " + std::to_string(row.grid) +
                                                        " is faster than the hop and payload time alone");
        x.push_back({mac, fixed, stage});
        y.push_back(observed - k);
    }
    auto fit = fitLeastSquares(x, y);
    if (!fit)
        return fit.error();
    WaferCalibration c;
    c.profile = set.id;
    c.source = set.source;
    c.params = with(fit->coefficients[0], fit->coefficients[1], fit->coefficients[2]);
    if (c.params.macCycles <= 0 || c.params.allreduceFixedCycles < 0 || c.params.routingStageCycles < 0)
        return makeError(ErrorCode::OutOfRange,
                         "the fit gave a negative constant; the measurements do not fit the model");
    c.rows = set.rows;
    // Residuals against the full observed cycles (not the part left after hops and payload).
    c.fit = *fit;
    for (size_t i = 0; i < set.rows.size(); ++i) {
        const double cycles = waferKernelLayerCycles(set.rows[i], c.params);
        const double observed = set.clockHz / (set.rows[i].tokensPerSecond * set.rows[i].layers);
        c.fit.fitted[i] = cycles;
        c.fit.relativeResiduals[i] = (cycles - observed) / observed;
        c.predictedTokensPerSecond.push_back(set.clockHz / (cycles * set.rows[i].layers));
    }
    double sumSq = 0;
    c.fit.maxAbsRelativeResidual = 0;
    for (double r : c.fit.relativeResiduals) {
        sumSq += r * r;
        c.fit.maxAbsRelativeResidual = std::max(c.fit.maxAbsRelativeResidual, std::abs(r));
    }
    c.fit.rmsRelativeResidual = std::sqrt(sumSq / double(c.fit.relativeResiduals.size()));
    return c;
}

const Expected<WaferCalibration>& shippedWaferCalibration()
{
    static const Expected<WaferCalibration> calibration = []() -> Expected<WaferCalibration> {
        const std::string_view text = embeddedMeasurement("waferllm-wse2-decode.json");
        if (text.empty())
            return makeError(ErrorCode::NotFound, "shipped measurements missing", "waferllm-wse2-decode.json");
        auto set = parseWaferKernelSet(std::string(text));
        if (!set)
            return set.error();
        return fitWaferTiming(*set);
    }();
    return calibration;
}

Expected<WaferKernelSet> parseWaferKernelSet(const std::string& jsonText)
{
    return guardedRead([&] { return parseWaferKernelSetUnguarded(jsonText); });
}

} // namespace ws
