#include "engine/wafer/mesh/meshvalues.h"

#include "engine/decode/forward.h"

#include <algorithm>
#include <cmath>

namespace ws {

TokenId greedyId(const std::vector<float>& logits)
{
    return TokenId(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

Expected<MeshValues> MeshValues::create(const Placement& placement, const DecodeModel& model, const MeshParams& params,
                                        int contextLength)
{
    auto tiled = TiledExecutor::create(placement, model.config(), model.weights(), contextLength);
    if (!tiled)
        return tiled.error();
    MeshValues v;
    v.m_placement = &placement;
    v.m_model = &model;
    v.m_params = params;
    v.m_tiled = std::make_unique<TiledExecutor>(std::move(*tiled));
    v.m_dense = std::make_unique<RunState>(model.config(), contextLength, 1, 1);
    v.m_pool = std::make_unique<ThreadPool>(1);
    return v;
}

Expected<MeshValuesStep> MeshValues::decode(const std::vector<TokenId>& prompt, int generate,
                                            const std::function<void(const MeshValuesStep&)>& onStep)
{
    if (prompt.empty())
        return makeError(ErrorCode::InvalidArgument, "the prompt has no tokens");
    const int steps = int(prompt.size()) + std::max(0, generate - 1);
    TokenId token = prompt.front();
    Expected<MeshValuesStep> last = makeError(ErrorCode::InvalidArgument, "nothing decoded");
    for (int pos = 0; pos < steps; ++pos) {
        last = step(token, pos);
        if (!last)
            return last;
        if (onStep)
            onStep(*last);
        token = pos + 1 < int(prompt.size()) ? prompt[size_t(pos + 1)] : last->engineId;
    }
    return last;
}

Expected<MeshValuesStep> MeshValues::step(TokenId token, int position)
{
    MeshValuesStep s;
    s.token = token;
    s.position = position;
    // The tiled executor sums each core's magnitudes over the steps run; this token's are the difference.
    std::vector<std::pair<double, double>> before;
    before.reserve(m_tiled->cores().size());
    for (const TiledCore& c : m_tiled->cores())
        before.emplace_back(c.partialMagnitude, c.partialSum);
    if (Status st = m_tiled->step(token, position); !st)
        return st.error();
    s.cores.reserve(before.size());
    for (size_t i = 0; i < before.size(); ++i) {
        const TiledCore& c = m_tiled->cores()[i];
        s.cores.push_back({c.device, c.usableX + m_placement->originX, c.usableY + m_placement->originY,
                           c.partialMagnitude - before[i].first, c.partialSum - before[i].second});
    }
    if (Status st = forward(m_model->config(), m_model->weights(), *m_dense, *m_pool, {&token, 1}, position); !st)
        return st.error();
    MeshOptions o;
    o.context = position + 1;
    o.layer = m_layer;
    auto run = executeMeshToken(*m_placement, m_model->modelConfig(), m_params, o);
    if (!run)
        return run.error();
    s.run = std::move(*run);
    const auto& a = m_tiled->logits();
    const auto& b = m_dense->logits;
    if (a.size() != b.size())
        return makeError(ErrorCode::InvalidArgument, "the engine's and the dense decoder's vocabularies differ");
    for (size_t i = 0; i < a.size(); ++i) {
        s.maxLogitDifference = std::max(s.maxLogitDifference, std::fabs(a[i] - b[i]));
        s.maxAbsLogit = std::max(s.maxAbsLogit, std::fabs(b[i]));
    }
    s.engineId = greedyId(a);
    s.denseId = greedyId(b);
    return s;
}

} // namespace ws
