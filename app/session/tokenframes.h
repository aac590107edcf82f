#pragma once
// The per-token frames of the live session (LiveWafer, livewafer.h, decides
// which scene they come from and when they play): a placed scene (the main wafer's, or
// the chat's model placed on the scenario's hardware) with its token schedule,
// and the per-token dataflow frames the main heatmap shows while the chat
// streams. Each new token is shown a golden-ratio step through the token's
// cycles after the previous one (goldenRatioCycle,
// engine/wafer/dataflow/meshframe.h), so a stream of tokens sweeps through
// every phase. A frame carries the activity of the visible device only (a
// light frame, refilled from a small pool once nobody holds it); while the
// view shows the KV layer its base holds the conversation's tokens so far
// (engine/session/kvoccupancy.h; a copy of the snapshot, so only then).
// When the wafer shows the chat's own MoE model, a token's frame comes from
// that token's schedule with the experts it really routed to (the decoder's
// ExpertRouting), not the schedule's stand-in sample.

#include "engine/decode/expertrouting.h"
#include "engine/scene/scene.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace ws {

struct TokenFrames
{
    std::shared_ptr<const MeshSnapshot> snapshot; // the placement heatmap (no activity)
    std::shared_ptr<const TokenSchedule> schedule;
    std::shared_ptr<const Placement> placement;
    // The chat's own MoE model (followRouting): the model and the schedule's inputs, to build a token's
    // schedule with its routed experts. Null otherwise.
    struct Routed
    {
        ModelConfig model;
        SceneSchedule timing;
    };
    std::shared_ptr<const Routed> routed;

    // The scene's model is the chat's model: frames follow each token's routing (MoE models with a schedule).
    void followRouting(const WaferScene& scene);
    // The schedule of a token that routed to `routing` (the shared schedule when not followed or empty).
    std::shared_ptr<const TokenSchedule> scheduleFor(const ExpertRouting* routing) const;

    // A scene with its schedule (built with withSchedule, or `schedule` given).
    static std::optional<TokenFrames> build(const WaferScene& scene, QString* error,
                                            std::shared_ptr<const TokenSchedule> schedule = nullptr);

    // The glow behind each event, as a fraction of the token's cycles: a pipelined token computes one layer at a
    // time, so without it a frame would light a single region (or none on the other wafers).
    static constexpr double trailFraction = 0.125;

    // What the main view shows, read when a frame is made: its device, and whether it draws the KV layer.
    struct Shown
    {
        std::atomic<int> device{0};
        std::atomic<bool> kvLayer{false};
    };
    // The frame of token `index` with `cacheTokens` in the KV cache and the token's routing (may be null),
    // for what `shown` says; a negative index is the idle wafer between turns (the base, nothing lit). Thread-safe (one
    // call at a time); shares only immutable data.
    using Source = std::function<std::shared_ptr<const MeshFrame>(int index, int cacheTokens,
                                                                  std::shared_ptr<const ExpertRouting> routing)>;
    Source frameSource(std::shared_ptr<const Shown> shown) const;
};

} // namespace ws
