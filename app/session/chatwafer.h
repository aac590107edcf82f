#pragma once
// The wafer side of the live session: a scene (the chat's model placed on a
// wafer preset, with its token schedule) and the per-token dataflow frames the
// heatmap shows while the chat streams. Each new token is shown a
// golden-ratio step through the token's cycles after the previous one
// (goldenRatioCycle, engine/wafer/dataflow/meshframe.h), with every wafer's
// activity, so a stream of tokens sweeps through every phase.

#include "app/scenario/scenarioscene.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace ws {

struct ChatWafer
{
    std::shared_ptr<const MeshSnapshot> snapshot; // the placement heatmap (no activity)
    std::shared_ptr<const TokenSchedule> schedule;

    // The scene must have been built with its schedule (ScenarioScene::build(..., withSchedule = true)).
    static std::optional<ChatWafer> build(const ScenarioScene& scene, QString* error);
    // The frame for token `index`. Thread-safe: shares only immutable data.
    std::shared_ptr<const MeshFrame> frame(int index) const;
    // For ChatController::setMeshFrameSource.
    std::function<std::shared_ptr<const MeshFrame>(int index)> frameSource() const;
};

} // namespace ws
