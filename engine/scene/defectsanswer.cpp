#include "engine/scene/defectsanswer.h"

#include "engine/predict/predictor.h"

namespace ws {

DefectsAnswer answerDefects(const ScenarioSpec& spec, int device, PlacementCache* placements,
                            std::shared_ptr<const WaferScene> built)
{
    DefectsAnswer out;
    out.device = device;
    auto remap = remapDevice(spec.hardware.wafer, spec.defects, device);
    if (!remap) {
        out.error = remap.error().message();
        return out;
    }
    out.summary = remap->summary();
    out.usableMesh = remap->usableLogicalMesh();
    out.remap = std::make_shared<const Remap>(std::move(*remap));

    if (built) {
        out.scene = std::move(built);
    } else if (auto scene = buildWaferScene(spec)) {
        out.scene = std::make_shared<const WaferScene>(std::move(*scene));
    } else {
        out.error = scene.error().message();
    }
    if (out.scene)
        out.hopStretch = out.scene->hopStretch.max();

    PredictOptions options;
    options.wafer.placements = placements;
    ScenarioSpec defectFree = spec;
    defectFree.defects = {};
    auto before = predict(defectFree, options);
    if (before) {
        out.secondsPerTokenBefore = before->secondsPerToken;
        out.devicesBefore = before->devices;
    } else {
        out.predictionError = before.error().message();
    }
    if (!out.scene)
        return out;
    // The fewest wafers that hold the model on the smaller mesh: may be more than before.
    auto after = predict(spec, options);
    if (after) {
        out.secondsPerTokenAfter = after->secondsPerToken;
        out.devicesAfter = after->devices;
    } else if (out.predictionError.empty()) {
        out.predictionError = after.error().message();
    }
    if (out.error.empty() && (out.usableMesh.cols <= 0 || out.usableMesh.rows <= 0))
        out.error = "the defects leave no usable mesh";
    return out;
}

} // namespace ws
