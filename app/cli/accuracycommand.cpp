// waferscope-cli accuracy: every shipped measured point predicted as the app predicts it (engine/explore/accuracy.h)
// and the statistics per group (calibration, development, check: the validation protocol, docs/validation.md) and
// per device kind, with the rows attempted and predicted (a row that cannot be predicted is a miss). The README's
// accuracy figures come from this command.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/common/buildinfo.h"

#include "engine/explore/accuracy.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ws::cli {

namespace {
// JSON has no infinity: an unbounded median range (more misses than ranges) is null.
QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}
} // namespace

int runAccuracy(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Predict every shipped measured point as the app predicts it and print, per group "
                       "(calibration, development, check) and device kind (wafer, gpu, lpu, all), the rows attempted "
                       "and predicted, the median |error|, the share inside the range and the median range "
                       "(high / low). A row that cannot be predicted is a miss: 100 % error, outside the range."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("group"), QStringLiteral("Only this group: calibration, development or check."),
                      QStringLiteral("G")});
    parser.addOption({QStringLiteral("set"),
                      QStringLiteral("Only the rows of this measurement set (a file's id, e.g. check-2026-12b: one "
                                     "frozen check set)."),
                      QStringLiteral("ID")});
    parser.addOption({QStringLiteral("rows"), QStringLiteral("Also list every row with its prediction.")});
    parser.addOption({QStringLiteral("engine"),
                      QStringLiteral("Time the rows the mesh engine can time (WaferLLM's decode kernel rows: one P x P "
                                     "region per layer) core by core with the hardware's unit costs, instead of the "
                                     "closed forms; the other rows are left out. Nothing is fitted to these rows.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (!parseArgs(parser, QStringLiteral("accuracy"), args))
        return kExitBadInput;
    const QString group = parser.value(QStringLiteral("group"));
    if (parser.isSet(QStringLiteral("group")) && !parseMeasuredRole(group.toStdString()))
        return fail(QStringLiteral("accuracy: unknown group '%1' (calibration, development or check)").arg(group));
    // Shipped data that fails to load is an error: no table from what is left.
    if (const std::vector<Error> errors = shippedDataErrors(); !errors.empty())
        return fail(QStringLiteral("accuracy: shipped data does not load: %1")
                        .arg(QString::fromStdString(errors.front().message())));
    const auto& shipped = shippedMeasuredPoints();
    const std::string set = parser.value(QStringLiteral("set")).toStdString();
    if (parser.isSet(QStringLiteral("set")) &&
        std::none_of(shipped->begin(), shipped->end(), [&](const MeasuredPoint& p) { return p.set == set; }))
        return fail(QStringLiteral("accuracy: no shipped measurement set '%1'").arg(QString::fromStdString(set)));
    const bool engine = parser.isSet(QStringLiteral("engine"));
    std::vector<AccuracyRow> rows;
    for (const MeasuredPoint& p : *shipped) {
        if (!group.isEmpty() && measuredRoleId(p.role) != group.toStdString())
            continue;
        if (!set.empty() && p.set != set)
            continue;
        if (!engine)
            rows.push_back(assessPoint(p));
        else if (p.decodeGrid > 0 && p.metric == "tokens_per_second_per_user" && p.promptTokens == 0)
            rows.push_back(assessPointOnMeshEngine(p));
    }
    std::vector<AccuracyGroup> table;
    for (const AccuracyGroup& g : accuracyTable(rows))
        if (group.isEmpty() || g.group == group.toStdString())
            table.push_back(g);

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray groups;
        for (const AccuracyGroup& g : table)
            groups.append(QJsonObject{{QStringLiteral("group"), QString::fromStdString(g.group)},
                                      {QStringLiteral("kind"), QString::fromStdString(g.kind)},
                                      {QStringLiteral("attempted"), g.stats.rows},
                                      {QStringLiteral("predicted"), g.stats.predicted},
                                      {QStringLiteral("inside"), g.stats.inside},
                                      {QStringLiteral("median_abs_error"), number(g.stats.medianAbsError)},
                                      {QStringLiteral("fraction_inside"), number(g.stats.fractionInside)},
                                      {QStringLiteral("median_range_ratio"), number(g.stats.medianRangeRatio)}});
        QJsonArray list;
        for (const AccuracyRow& r : rows) {
            QJsonObject o{{QStringLiteral("label"), QString::fromStdString(r.point.label)},
                          {QStringLiteral("set"), QString::fromStdString(r.point.set)},
                          {QStringLiteral("group"), QString::fromStdString(std::string(measuredRoleId(r.point.role)))},
                          {QStringLiteral("kind"), QString::fromUtf8(hardwareKindId(r.kind))},
                          {QStringLiteral("model"), QString::fromStdString(r.point.modelId)},
                          {QStringLiteral("hardware"), QString::fromStdString(r.point.hardwareId)},
                          {QStringLiteral("metric"), QString::fromStdString(r.point.metric)},
                          {QStringLiteral("measured"), r.point.value},
                          {QStringLiteral("predicted"), !r.miss},
                          {QStringLiteral("doubtful"), !r.point.doubt.empty()}};
            if (r.miss) {
                o.insert(QStringLiteral("why"), QString::fromStdString(r.why));
            } else {
                o.insert(QStringLiteral("prediction"), r.predicted);
                o.insert(QStringLiteral("range"), QJsonArray{r.low, r.high});
                o.insert(QStringLiteral("relative_error"), r.relativeError);
                o.insert(QStringLiteral("inside"), r.inside);
            }
            list.append(o);
        }
        printJson(QJsonObject{
            {QStringLiteral("revision"), BuildInfo::revision()},
            {QStringLiteral("timed_by"), engine ? QStringLiteral("mesh engine") : QStringLiteral("closed forms")},
            {QStringLiteral("groups"), groups},
            {QStringLiteral("rows"), list}});
        return kExitOk;
    }
    if (parser.isSet(QStringLiteral("rows"))) {
        std::printf("%-12s %-6s %-60s %10s %10s %10s %10s %7s %s\n", "group", "kind", "row", "measured", "predicted",
                    "low", "high", "error", "inside");
        for (const AccuracyRow& r : rows) {
            const std::string role(measuredRoleId(r.point.role));
            if (r.miss)
                std::printf("%-12s %-6s %-60.60s %10.1f  miss: %s\n", role.c_str(), hardwareKindId(r.kind),
                            r.point.label.c_str(), r.point.value, r.why.c_str());
            else
                std::printf("%-12s %-6s %-60.60s %10.1f %10.1f %10.1f %10.1f %+6.0f%% %s\n", role.c_str(),
                            hardwareKindId(r.kind), r.point.label.c_str(), r.point.value, r.predicted, r.low, r.high,
                            100 * r.relativeError, r.inside ? "yes" : "no");
        }
        std::printf("\n");
    }
    std::printf("accuracy of waferscope %s on the shipped measurements (misses count as 100 %% error, outside)%s\n",
                BuildInfo::revision().toUtf8().constData(),
                engine ? "; timed by the mesh engine, nothing fitted to these rows" : "");
    std::printf("%-12s %-6s %9s %9s %13s %13s %13s\n", "group", "kind", "attempted", "predicted", "median |err|",
                "inside range", "median hi/lo");
    for (const AccuracyGroup& g : table) {
        const AccuracyStats& s = g.stats;
        if (s.rows == 0) {
            std::printf("%-12s %-6s %9d %9d %13s %13s %13s\n", g.group.c_str(), g.kind.c_str(), 0, 0, "-", "-", "-");
            continue;
        }
        const QString inside = QStringLiteral("%1 (%2%)").arg(s.inside).arg(100 * s.fractionInside, 0, 'f', 0);
        std::printf("%-12s %-6s %9d %9d %12.1f%% %13s %13.2f\n", g.group.c_str(), g.kind.c_str(), s.rows, s.predicted,
                    100 * s.medianAbsError, inside.toUtf8().constData(), s.medianRangeRatio);
    }
    return kExitOk;
}

} // namespace ws::cli
