#include "app/cli/targetoutput.h"

#include "app/cli/cliutil.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

namespace ws::cli {

int printTarget(const ModelConfig& model, const HardwareSpec& hw, const Workload& w, const PredictOptions& options,
                double target, bool json)
{
    auto answer = whatItTakes(model, hw, w, options, target);
    if (!answer)
        return fail(QString::fromStdString(answer.error().message()));
    const TargetAnswer& a = *answer;
    if (json) {
        QJsonArray tried;
        for (const TargetOption& t : a.tried)
            tried.append(QJsonObject{{QStringLiteral("kernel"), QString::fromStdString(t.kernel)},
                                     {QStringLiteral("kernel_factor"), t.kernelFactor},
                                     {QStringLiteral("experts"), QString::fromStdString(t.experts)},
                                     {QStringLiteral("speculative"), t.speculative},
                                     {QStringLiteral("draft_tokens"), t.draftTokens},
                                     {QStringLiteral("acceptance"), t.acceptance},
                                     {QStringLiteral("draft_cost_fraction"), t.draftCostFraction},
                                     {QStringLiteral("devices"), t.devices},
                                     {QStringLiteral("tokens_per_second_per_user"), t.tokensPerSecond},
                                     {QStringLiteral("ceiling_tokens_per_second"), t.ceilingTokensPerSecond},
                                     {QStringLiteral("ceiling_bound"), QString::fromStdString(t.ceilingBound)},
                                     {QStringLiteral("reaches"), t.reaches}});
        QJsonObject out{{QStringLiteral("model"), QString::fromStdString(model.id)},
                        {QStringLiteral("hardware"), QString::fromStdString(hw.id)},
                        {QStringLiteral("target_tokens_per_second"), target},
                        {QStringLiteral("reachable"), a.reachable},
                        {QStringLiteral("verdict"), QString::fromStdString(a.verdict)},
                        {QStringLiteral("fastest"), int(a.fastest)},
                        {QStringLiteral("tried"), tried}};
        if (a.least)
            out.insert(QStringLiteral("least"), int(*a.least));
        printJson(out);
        return kExitOk;
    }
    std::printf("what it takes: %s on %s at %.0f tokens/s per user\n", model.name.c_str(), hw.id.c_str(), target);
    std::printf("%-28s %7s %-7s %4s %5s %7s %12s %12s %s\n", "kernels", "factor", "experts", "k", "a", "devices",
                "tokens/s", "ceiling", "reaches");
    for (const TargetOption& t : a.tried)
        std::printf("%-28.28s %7.3f %-7s %4d %5.2f %7d %12.1f %12.1f %s\n", t.kernel.empty() ? "-" : t.kernel.c_str(),
                    t.kernelFactor, t.experts.empty() ? "-" : t.experts.c_str(), t.draftTokens, t.acceptance, t.devices,
                    t.tokensPerSecond, t.ceilingTokensPerSecond, t.reaches ? "yes" : "no");
    std::printf("%s\n", a.verdict.c_str());
    return kExitOk;
}

} // namespace ws::cli
