#include "app/dataflow/dataflowschedule.h"

#include "app/common/backgroundfree.h"

#include "engine/session/chatturn.h"
#include "engine/session/generatorsessionmodel.h"
#include "engine/wafer/dataflow/scheduleregions.h"
#include "engine/wafer/mesh/meshvalues.h"

#include <QCoreApplication>

#include <algorithm>

namespace ws {

std::optional<DataflowSetup> buildDataflowSetup(const PlacementResult& result, KvPlacement kv, QString* error)
{
    if (!result.scene) {
        *error = QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
        return std::nullopt;
    }
    auto timing = sceneSchedule(*result.scene, kv); // made with the placement on its worker, where it was
    if (!timing) {
        *error = sceneErrorText(timing.error(), result.scene->spec);
        return std::nullopt;
    }
    DataflowSetup out;
    out.schedule = timing->schedule;
    out.params = describe(timing->params, timing->profile);
    out.kvPlacement = kv;
    for (const Phase& p : out.schedule->phases)
        if (p.kind == PhaseKind::WaferHop)
            out.waferLinks.push_back({p.device, p.toDevice,
                                      double(result.model().hiddenSize) * timing->params.activationBytes,
                                      p.durationCycles()});
    if (!timing->regions.layers.empty()) {
        const CoreRect& r = timing->regions.layers.front().rect;
        out.kv = kvCapacity(LayerDims::fromModel(result.model(), 0), r.width, r.height,
                            kvBytesAvailablePerCore(*result.scene->placement), timing->params);
    }
    return out;
}

namespace {

bool onWafer(const PlacementResult& result, QString* error)
{
    if (result.scene && result.scene->placement && result.hardware().kind == HardwareKind::Wafer)
        return true;
    *error = QCoreApplication::translate("ws::WaferScene", "the model is not placed on a wafer");
    return false;
}

DataflowSetup executedSetup(const PlacementResult& result, int layer, MeshRun run, std::vector<MeshCoreValue> values)
{
    const MeshParams params = MeshParams::fromHardware(result.hardware().wafer);
    DataflowSetup out;
    out.executedLayer = layer;
    out.closedFormCycles = run.closedFormCycles();
    // Freed on the thread pool: the run and its playback are hundreds of MB (app/common/backgroundfree.h).
    out.executed = makeSharedFreedInBackground<MeshPlayback>(makeSharedFreedInBackground<MeshRun>(std::move(run)),
                                                             std::move(values));
    out.schedule = out.executed->sharedSchedule(out.executed);
    for (const MeshParamSource& p : describe(params, result.hardware())) {
        ParamInfo info;
        info.name = info.label = p.name;
        info.value = p.value;
        info.source = p.source;
        out.params.push_back(std::move(info));
    }
    return out;
}

QString engineError(const Error& e)
{
    return QCoreApplication::translate("ws::DataflowDock", "The mesh engine cannot run this layer: %1")
        .arg(QString::fromStdString(e.message()));
}

} // namespace

std::optional<DataflowSetup> buildPrefillSetup(const PlacementResult& result, KvPlacement kv, QString* error)
{
    if (!onWafer(result, error))
        return std::nullopt;
    auto prefill = prefillScene(*result.scene, kv);
    if (!prefill) {
        *error = sceneErrorText(prefill.error(), result.scene->spec);
        return std::nullopt;
    }
    DataflowSetup out;
    out.schedule = prefill->timing.schedule;
    out.params = describe(prefill->timing.params, prefill->timing.profile);
    out.kvPlacement = kv;
    out.prefill = std::move(*prefill);
    return out;
}

std::optional<DataflowSetup> buildExecutedSetup(const PlacementResult& result, int layer, QString* error)
{
    if (!onWafer(result, error))
        return std::nullopt;
    MeshOptions options;
    options.context = std::max<int64_t>(1, result.spec().workload.contextTokens);
    options.layer = layer;
    auto run = executeMeshToken(*result.scene->placement, result.model(),
                                MeshParams::fromHardware(result.hardware().wafer), options);
    if (!run) {
        *error = engineError(run.error());
        return std::nullopt;
    }
    return executedSetup(result, layer, std::move(*run), {});
}

ValuesTurn defaultValuesTurn()
{
    ValuesTurn turn;
    turn.label = QStringLiteral("Once upon a time");
    turn.request.messages = {{ChatRole::User, turn.label.toStdString()}};
    turn.request.mode = PromptMode::Completion;
    return turn;
}

std::optional<DataflowSetup> buildValuesSetup(const PlacementResult& result, const QString& weightsFile,
                                              const ValuesTurn& turn, int layer, QString* error)
{
    if (!onWafer(result, error))
        return std::nullopt;
    if (weightsFile.isEmpty()) {
        *error = QCoreApplication::translate("ws::DataflowDock",
                                             "The Values layer needs a model's weights: open a GGUF model in the "
                                             "chat and show \"the loaded model\" on the wafer.");
        return std::nullopt;
    }
    GeneratorSessionModel::Options so;
    so.threads = 1;
    auto session = GeneratorSessionModel::load(weightsFile.toStdString(), so);
    if (!session) {
        *error = engineError(session.error());
        return std::nullopt;
    }
    const ModelConfig& file = (*session)->info().config;
    const ModelConfig& placed = result.model();
    if (file.layers != placed.layers || file.hiddenSize != placed.hiddenSize || file.ffnSize != placed.ffnSize ||
        file.headCount != placed.headCount || file.kvHeadCount != placed.kvHeadCount) {
        *error = QCoreApplication::translate("ws::DataflowDock",
                                             "The Values layer needs the weights of the model on the wafer (%1); the "
                                             "chat's model is %2: show \"the loaded model\" on the wafer.")
                     .arg(QString::fromStdString(placed.name), QString::fromStdString((*session)->info().displayName));
        return std::nullopt;
    }
    auto ids = (*session)->promptTokens(turn.request);
    if (!ids || ids->empty()) {
        *error = engineError(ids ? makeError(ErrorCode::InvalidArgument, "the prompt has no tokens") : ids.error());
        return std::nullopt;
    }
    ids->insert(ids->end(), turn.answer.begin(), turn.answer.end());
    const size_t room = size_t(std::clamp<int64_t>(result.spec().workload.contextTokens, 1, kValuesTokensMax));
    const size_t dropped = ids->size() > room ? ids->size() - room : 0;
    ids->erase(ids->begin(), ids->begin() + std::ptrdiff_t(dropped));
    const Placement& placement = *result.scene->placement;
    auto engine = MeshValues::create(placement, (*session)->model(), MeshParams::fromHardware(result.hardware().wafer),
                                     int(ids->size()));
    if (!engine) { // e.g. the placement is of another model than the file's
        *error = engineError(engine.error());
        return std::nullopt;
    }
    engine->setTimedLayer(layer);
    auto last = engine->decode(*ids, 0);
    if (!last) {
        *error = engineError(last.error());
        return std::nullopt;
    }
    DataflowSetup out = executedSetup(result, layer, std::move(last->run), std::move(last->cores));
    out.valuesTokens = int(ids->size());
    out.valuesDropped = int(dropped);
    return out;
}

} // namespace ws
