#include "engine/explore/layoutsweep.h"

#include "engine/predict/predictor.h"

#include "engine/predict/waferpredictor.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace ws {

namespace {
using nlohmann::json;

constexpr SweepParameter kParameters[] = {
    SweepParameter::Fill,   SweepParameter::Context,     SweepParameter::Precision,
    SweepParameter::Wafers, SweepParameter::Concurrency, SweepParameter::Order,
    SweepParameter::Aspect, SweepParameter::HopLatency,  SweepParameter::Experts};

std::string number(double v)
{
    return json(v).dump();
}

Expected<double> parseNumber(const std::string& s, const char* what)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
        return makeError(ErrorCode::InvalidArgument, std::string(what) + ": '" + s + "' is not a number", "sweep");
    return v;
}

// Applies one axis value to a point's base.
Status apply(ScenarioSpec& b, SweepParameter p, const std::string& v)
{
    const char* id = sweepParameterId(p);
    if (p == SweepParameter::Precision) {
        const auto precision = parsePrecision(v);
        if (!precision)
            return makeError(ErrorCode::InvalidArgument, "precision: unknown '" + v + "'", "sweep");
        b.workload.precision = *precision;
        return Ok{};
    }
    if (p == SweepParameter::Order) {
        const auto order = parseLayerOrder(v);
        if (!order)
            return makeError(ErrorCode::InvalidArgument, "order: '" + v + "' is not snake, row-major or column-major",
                             "sweep");
        b.order = *order;
        return Ok{};
    }
    if (p == SweepParameter::Experts) {
        const auto experts = parseExpertLayout(v);
        if (!experts)
            return makeError(ErrorCode::InvalidArgument, "experts: '" + v + "' is not blocks or sliced", "sweep");
        b.experts = *experts;
        return Ok{};
    }
    auto x = parseNumber(v, id);
    if (!x)
        return x.error();
    const double d = *x;
    const bool whole = d == std::floor(d) && d >= 0 && d < 1e12;
    switch (p) {
    case SweepParameter::Fill:
        if (!(d > 0 && d <= 1))
            return makeError(ErrorCode::InvalidArgument, "fill must be in (0, 1]", "sweep");
        b.weightFill = d;
        return Ok{};
    case SweepParameter::HopLatency:
        if (!(d >= 1))
            return makeError(ErrorCode::InvalidArgument, "hop-latency is a factor on each hop's cost, at least 1",
                             "sweep");
        b.hopStretch = d;
        return Ok{};
    default:
        break;
    }
    if (!whole || d < 1)
        return makeError(ErrorCode::InvalidArgument, std::string(id) + " must be a whole number from 1", "sweep");
    if (p == SweepParameter::Context)
        b.workload.contextTokens = int64_t(d);
    else if (p == SweepParameter::Wafers)
        b.devices = int(d);
    else if (p == SweepParameter::Concurrency)
        b.workload.concurrency = int(d);
    else
        b.bandsPerDevice = int(d);
    return Ok{};
}
} // namespace

const char* sweepParameterId(SweepParameter p)
{
    switch (p) {
    case SweepParameter::Fill:
        return "fill";
    case SweepParameter::Context:
        return "context";
    case SweepParameter::Precision:
        return "precision";
    case SweepParameter::Wafers:
        return "wafers";
    case SweepParameter::Concurrency:
        return "concurrency";
    case SweepParameter::Order:
        return "order";
    case SweepParameter::Aspect:
        return "aspect";
    case SweepParameter::HopLatency:
        return "hop-latency";
    case SweepParameter::Experts:
        return "experts";
    }
    return "fill";
}

std::span<const SweepParameter> sweepParameters()
{
    return kParameters;
}

Expected<SweepAxis> parseSweepAxis(std::string_view text)
{
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos)
        return makeError(ErrorCode::InvalidArgument, "a sweep parameter is NAME=V1,V2,... or NAME=LO:HI:STEP", "sweep");
    const std::string name(text.substr(0, eq));
    const std::string spec(text.substr(eq + 1));
    SweepAxis axis;
    const auto* found = std::find_if(std::begin(kParameters), std::end(kParameters),
                                     [&](SweepParameter p) { return name == sweepParameterId(p); });
    if (found == std::end(kParameters))
        return makeError(ErrorCode::InvalidArgument,
                         "unknown sweep parameter '" + name +
                             "' (fill, context, precision, wafers, concurrency, order, aspect, hop-latency, experts)",
                         "sweep");
    axis.parameter = *found;
    if (std::count(spec.begin(), spec.end(), ':') == 2) {
        const size_t a = spec.find(':');
        const size_t b = spec.find(':', a + 1);
        auto lo = parseNumber(spec.substr(0, a), "range");
        auto hi = parseNumber(spec.substr(a + 1, b - a - 1), "range");
        auto step = parseNumber(spec.substr(b + 1), "range");
        if (!lo || !hi || !step)
            return makeError(ErrorCode::InvalidArgument, "range: LO:HI:STEP must be numbers", "sweep");
        if (!(*step > 0) || *hi < *lo || (*hi - *lo) / *step > 1e6)
            return makeError(ErrorCode::InvalidArgument, "range: need LO <= HI, STEP > 0 and at most 10^6 values",
                             "sweep");
        const int64_t n = int64_t(std::floor((*hi - *lo) / *step + 1e-9)) + 1;
        for (int64_t i = 0; i < n; ++i)
            axis.values.push_back(number(std::round((*lo + double(i) * *step) * 1e9) / 1e9));
    } else {
        std::stringstream in(spec);
        for (std::string v; std::getline(in, v, ',');)
            if (!v.empty())
                axis.values.push_back(v);
    }
    if (axis.values.empty())
        return makeError(ErrorCode::InvalidArgument, name + ": no values", "sweep");
    ScenarioSpec probe;
    for (const std::string& v : axis.values)
        if (Status ok = apply(probe, axis.parameter, v); !ok)
            return ok.error();
    return axis;
}

Expected<Prediction> predictPlaced(const ScenarioSpec& b, PlacementCache* cache, Layout* layoutOut,
                                   PredictDetail detail)
{
    const SharedPlacement placed = placeThrough(cache, b.model, b.hardware.wafer, placementOptions(b));
    if (!*placed)
        return placed->error();
    const Layout layout = layoutOf(**placed, b.model.id, b.hardware.id);
    // Through predict(), as the CLI and the window predict: the same serving stack (kernels, speculation).
    PredictOptions o;
    o.wafer.placedLayout = &layout;
    o.wafer.placedLayoutPlacement = placed; // layoutOf(placed) is `layout`: not placed again
    o.wafer.placements = cache;
    o.wafer.noRange = detail.noRange;
    o.wafer.pointOnly = detail.pointOnly;
    auto p = predict(b, o);
    if (p && layoutOut)
        *layoutOut = layout;
    return p;
}

int64_t sweepPointCount(const std::vector<SweepAxis>& axes)
{
    int64_t n = axes.empty() ? 0 : 1;
    for (const SweepAxis& a : axes)
        n *= int64_t(a.values.size());
    return n;
}

Expected<ScenarioSpec> sweepPointBase(const ScenarioSpec& base, const std::vector<SweepAxis>& axes, int64_t index)
{
    if (axes.empty() || axes.size() > 2 || index < 0 || index >= sweepPointCount(axes))
        return makeError(ErrorCode::OutOfRange, "no such sweep point", "sweep");
    ScenarioSpec b = base;
    const int64_t inner = axes.size() == 2 ? int64_t(axes[1].values.size()) : 1;
    const int64_t at[2] = {index / inner, index % inner};
    for (size_t a = 0; a < axes.size(); ++a)
        if (Status ok = apply(b, axes[a].parameter, axes[a].values[size_t(at[a])]); !ok)
            return ok.error();
    return b;
}

std::vector<size_t> paretoFront(const SweepResult& r, bool againstKv)
{
    // Higher is better on both axes: tokens/s per user, and -wafers or KV capacity.
    auto second = [&](const SweepPoint& p) { return againstKv ? double(p.kvCapacityTokens) : -double(p.devices); };
    std::vector<size_t> front;
    for (size_t i = 0; i < r.points.size(); ++i) {
        const SweepPoint& p = r.points[i];
        if (!p.error.empty())
            continue;
        bool beaten = false;
        for (size_t j = 0; j < r.points.size() && !beaten; ++j) {
            const SweepPoint& q = r.points[j];
            if (j == i || !q.error.empty())
                continue;
            const bool noWorse = q.tokensPerSecondPerUser >= p.tokensPerSecondPerUser && second(q) >= second(p);
            const bool better = q.tokensPerSecondPerUser > p.tokensPerSecondPerUser || second(q) > second(p);
            // Of equal points the first stays on the front.
            beaten = noWorse && (better || j < i);
        }
        if (!beaten)
            front.push_back(i);
    }
    std::sort(front.begin(), front.end(),
              [&](size_t a, size_t b) { return second(r.points[a]) > second(r.points[b]); });
    return front;
}

Expected<SweepResult> runSweep(const ScenarioSpec& base, const std::vector<SweepAxis>& axes, int shard, int shards,
                               const std::function<bool(int64_t, int64_t)>& progress)
{
    if (axes.empty() || axes.size() > 2)
        return makeError(ErrorCode::InvalidArgument, "a sweep has one or two parameters", "sweep");
    if (axes.size() == 2 && axes[0].parameter == axes[1].parameter)
        return makeError(ErrorCode::InvalidArgument, "the two sweep parameters must differ", "sweep");
    if (shards < 1 || shard < 1 || shard > shards)
        return makeError(ErrorCode::InvalidArgument, "shard I/N needs 1 <= I <= N", "shard");
    SweepResult r;
    r.axes = axes;
    r.totalPoints = sweepPointCount(axes);
    r.shard = shard;
    r.shards = shards;
    PlacementCache cache(256);
    const int64_t first = r.totalPoints * (shard - 1) / shards;
    const int64_t last = r.totalPoints * shard / shards;
    const int64_t inner = axes.size() == 2 ? int64_t(axes[1].values.size()) : 1;
    for (int64_t i = first; i < last; ++i) {
        SweepPoint point;
        point.index = i;
        ScenarioSpec b = base;
        const int64_t at[2] = {i / inner, i % inner};
        for (size_t a = 0; a < axes.size(); ++a) {
            point.values.push_back(axes[a].values[size_t(at[a])]);
            (void)apply(b, axes[a].parameter, point.values.back()); // checked by parseSweepAxis
        }
        auto p = predictPlaced(b, &cache, nullptr, {.noRange = true}); // a point shows no range
        if (!p) {
            point.error = p.error().text;
        } else {
            point.msPerToken = 1e3 * p->secondsPerToken;
            point.tokensPerSecondPerUser = p->tokensPerSecondPerUser;
            point.ttftMs = 1e3 * p->ttftSeconds;
            point.devices = p->devices;
            point.kvCapacityTokens = p->kvCapacityTokens;
            point.sramHeadroomBytes = p->sramHeadroomBytes;
        }
        r.points.push_back(std::move(point));
        if (progress && !progress(i - first + 1, last - first))
            return makeError(ErrorCode::Cancelled, "the sweep was cancelled", "sweep");
    }
    return r;
}

} // namespace ws
