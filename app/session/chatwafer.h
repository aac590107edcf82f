#pragma once
// The wafer side of the live session: a scene (the chat's model placed on a
// wafer preset) and the per-token dataflow frames the heatmap shows while
// the chat streams. The schedule runs over the scene's own placement with
// the wafer predictor's timing constants (as the recorder's animation does),
// so activity lands where the heatmap shows each layer.

#include "app/scenario/scenarioscene.h"
#include "engine/session/meshanimator.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace ws {

struct ChatWafer
{
    std::shared_ptr<const MeshSnapshot> snapshot; // the placement heatmap (no activity)
    std::shared_ptr<const MeshAnimator> animator;

    static std::optional<ChatWafer> build(const ScenarioScene& scene, int64_t contextTokens, QString* error);
    // For ChatController::setMeshFrameSource: thread-safe (shares only immutable data).
    std::function<std::shared_ptr<const MeshSnapshot>(int index)> frameSource() const;
};

} // namespace ws
