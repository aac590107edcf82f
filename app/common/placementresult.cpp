#include "app/common/placementresult.h"

#include <QCoreApplication>

#include <cmath>
#include <optional>

namespace ws {

Expected<PlacementResult> computePlacement(const ScenarioSpec& spec, bool withTiming)
{
    auto built = buildWaferScene(spec);
    if (!built)
        return built.error();
    if (withTiming)
        if (auto timing = scheduleScene(*built, spec.kv))
            built->timing = std::move(*timing);
    return placementResultOf(std::make_shared<const WaferScene>(std::move(*built)));
}

const ScenarioSpec& PlacementResult::spec() const
{
    static const ScenarioSpec none;
    return scene ? scene->spec : none;
}

std::optional<Layout> PlacementResult::layout() const
{
    if (!scene || !scene->placement)
        return std::nullopt;
    return layoutOf(*scene->placement, model().id, hardware().id);
}

PlacementResult placementResultOf(std::shared_ptr<const WaferScene> scene)
{
    const Placement& p = *scene->placement;
    PlacementResult result;
    result.snapshot = scene->snapshot;
    result.devices = scene->snapshot ? scene->snapshot->deviceCount : p.deviceCount; // with the draft's own wafer
    result.layersPerDevice = p.layersPerDevice;
    result.sramUsedBytes = p.sramUsedBytes();
    result.sramTotalBytes = p.sramTotalBytes();
    result.notes = p.notes;
    if (scene->draftPlacement) {
        // The draft's strip is part of wafer 0 (the target's usable mesh leaves it out), or its own wafer follows.
        result.sramUsedBytes += scene->draftPlacement->sramUsedBytes();
        result.sramTotalBytes += scene->draftPlacement->sramTotalBytes();
        result.notes.push_back("draft model " + scene->draftModel()->id + ": " +
                               std::to_string(scene->draftHome->draftCores()) + " cores of its own on wafer " +
                               std::to_string(scene->draftDevice() + 1) +
                               (scene->draftHome->ownWafer() ? " (a wafer of its own)" : ""));
    }
    result.scene = std::move(scene);
    return result;
}

QString sceneErrorText(const Error& error, const ScenarioSpec& request)
{
    if (error.field == "schedule")
        return QCoreApplication::translate("ws::WaferScene", "the engine gave no dataflow schedule for %1 on %2")
            .arg(QString::fromStdString(request.model.name), QString::fromStdString(request.hardware.name));
    if (error.field == "placement")
        return QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
    return QString::fromStdString(error.message());
}

namespace {

// (Built with append: operator+ on a literal trips GCC 12's -Wrestrict at -O3.)
std::string range(int64_t begin, int64_t end)
{
    std::string s(1, '[');
    s.append(std::to_string(begin)).append(", ").append(std::to_string(end)).append(")");
    return s;
}

std::string tileText(const CoreTile& t)
{
    std::string s;
    if (t.layer >= 0)
        s.append(1, 'L').append(std::to_string(t.layer)).append(" ");
    s.append(tensorKindId(t.kind));
    if (t.rowEnd - t.rowBegin > 1 || t.rowBegin > 0)
        s.append(" rows ").append(range(t.rowBegin, t.rowEnd)).append(" x");
    s.append(" inputs ").append(range(t.colBegin, t.colEnd));
    return s;
}

} // namespace

const Placement* enginePlacement(const PlacementResult& result)
{
    return result.scene ? result.scene->placement.get() : nullptr;
}

Expected<CoreInfo> coreInfo(const PlacementResult& result, int device, int x, int y)
{
    const auto& s = result.snapshot;
    if (!s || device < 0 || device >= s->deviceCount || x < 0 || y < 0 || x >= s->meshCols || y >= s->meshRows)
        return makeError(ErrorCode::OutOfRange, "core is off the mesh");
    CoreInfo info;
    info.device = device;
    info.x = x;
    info.y = y;
    info.sramBytes = s->sramBytesPerCore;
    const size_t cores = static_cast<size_t>(s->meshCols) * static_cast<size_t>(s->meshRows);
    const size_t i = static_cast<size_t>(y) * s->meshCols + x;
    const auto d = static_cast<size_t>(device);
    if (d < s->owner.size() && s->owner[d].size() == cores) {
        const size_t o = s->owner[d][i];
        if (o > 0 && o < s->owners.size()) {
            info.layerIndex = s->owners[o].layerIndex;
            info.tensorKind = s->owners[o].tensorKind;
        }
    }
    const Placement* placement = enginePlacement(result);
    int placedDevice = device;
    if (result.scene && result.scene->isDraftCore(device, x, y)) {
        // A core of the draft's own strip or wafer: the draft's placement (one wafer) answers for it.
        placement = result.scene->draftPlacement.get();
        placedDevice = 0;
        info.draftModel = result.scene->draftModel()->name;
    }
    const auto detail = placement ? placement->coreDetail(placedDevice, x, y) : std::nullopt;
    if (!detail) {
        // Without the engine's placement, only what the snapshot carries.
        if (d < s->sramFraction.size() && s->sramFraction[d].size() == cores)
            info.usedBytes = std::llround(double(s->sramFraction[d][i]) * double(s->sramBytesPerCore));
        return info;
    }
    if (detail->usableX >= 0) {
        info.usableX = detail->usableX;
        info.usableY = detail->usableY;
    }
    const Remap* remap = result.scene->remap(device);
    if (remap && x < remap->fabricCols() && y < remap->fabricRows()) {
        const int32_t physical = remap->physicalOfFabric(x, y);
        const int cols = remap->layout().physicalCols();
        if (physical >= 0 && cols > 0) {
            info.physicalX = physical % cols;
            info.physicalY = physical / cols;
        }
    }
    if (detail->layer >= 0)
        info.layerIndex = detail->layer;
    for (const CoreTile& t : detail->tiles)
        info.tiles.push_back(tileText(t));
    if (detail->bytes.kv > 0)
        info.kvRange.append("tokens ")
            .append(range(detail->kvTokenBegin, detail->kvTokenEnd))
            .append(" x K|V columns ")
            .append(range(detail->kvColumnBegin, detail->kvColumnEnd));
    for (int k = 0; k < kTensorKindCount; ++k)
        if (detail->bytes.weights[size_t(k)] > 0)
            info.bytesByKind.push_back({tensorKindId(TensorKind(k)), detail->bytes.weights[size_t(k)]});
    if (detail->bytes.kv > 0)
        info.bytesByKind.push_back({"kv", detail->bytes.kv});
    if (detail->bytes.activations > 0)
        info.bytesByKind.push_back({"activations", detail->bytes.activations});
    if (detail->bytes.program > 0)
        info.bytesByKind.push_back({"program", detail->bytes.program});
    info.usedBytes = detail->bytes.used();
    return info;
}

} // namespace ws
