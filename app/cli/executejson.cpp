#include "app/cli/executejson.h"

#include "engine/calibration/wafercalibration.h"
#include "engine/wafer/dataflow/scheduleregions.h"

#include <QJsonArray>

#include <algorithm>
#include <numeric>
#include <string>

namespace ws::cli {

namespace {
constexpr int kListed = 5; // busiest links and cores listed

QString phaseName(PhaseKind kind)
{
    return QString::fromLatin1(std::string(phaseKindId(kind)).c_str());
}

QString eventKindName(MeshEventKind kind)
{
    switch (kind) {
    case MeshEventKind::Compute:
        return QStringLiteral("compute");
    case MeshEventKind::Message:
    case MeshEventKind::Multicast:
        return QStringLiteral("message");
    case MeshEventKind::WaferLink:
        return QStringLiteral("wafer_link");
    }
    return QStringLiteral("unknown");
}

QJsonObject coreJson(const MeshCore& c)
{
    return {{QStringLiteral("device"), c.device}, {QStringLiteral("x"), c.x}, {QStringLiteral("y"), c.y}};
}
} // namespace

QJsonObject meshRunJson(const MeshRun& run)
{
    QJsonObject out;
    out.insert(QStringLiteral("cycles"), run.totalCycles);
    out.insert(QStringLiteral("seconds"), run.clockHz > 0 ? run.totalCycles / run.clockHz : 0.0);
    out.insert(QStringLiteral("clock_hz"), run.clockHz);
    out.insert(QStringLiteral("closed_form_cycles"), run.closedFormCycles());

    QJsonArray phases;
    for (const MeshPhase& p : run.phases)
        phases.append(QJsonObject{{QStringLiteral("name"), phaseName(p.kind)},
                                  {QStringLiteral("layer"), p.layer},
                                  {QStringLiteral("engine_cycles"), p.engineCycles},
                                  {QStringLiteral("closed_form_cycles"), p.closedFormCycles},
                                  {QStringLiteral("words_delivered"), p.traffic.wordsDelivered},
                                  {QStringLiteral("macs"), p.traffic.macs}});
    out.insert(QStringLiteral("phases"), phases);

    const auto& cores = run.fabric->cores();
    QJsonArray critical;
    for (const CriticalStep& s : run.criticalPath) {
        const MeshPhase& p = run.phases[size_t(s.phase)];
        QJsonObject step{{QStringLiteral("phase"), phaseName(p.kind)},
                         {QStringLiteral("layer"), p.layer},
                         {QStringLiteral("kind"), eventKindName(s.kind)},
                         {QStringLiteral("events"), s.events},
                         {QStringLiteral("cycles"), s.cycles}};
        if (s.core >= 0)
            step.insert(QStringLiteral("core"), coreJson(cores[size_t(s.core)]));
        critical.append(step);
    }
    out.insert(QStringLiteral("critical_path"), critical);

    std::vector<MeshLink> links = run.fabric->links();
    double words = 0, busy = 0, waferBytes = 0;
    for (const MeshLink& l : links) {
        words += l.stats.words;
        busy += l.stats.busyCycles;
    }
    for (const MeshPhase& p : run.phases)
        waferBytes += p.traffic.interWaferBytes;
    std::stable_sort(links.begin(), links.end(),
                     [](const MeshLink& a, const MeshLink& b) { return a.stats.busyCycles > b.stats.busyCycles; });
    static const char* const kDirs[] = {"east", "west", "south", "north", "wafer"};
    QJsonArray busiestLinks;
    for (size_t i = 0; i < links.size() && i < size_t(kListed); ++i) {
        const MeshLink& l = links[i];
        QJsonObject o = coreJson(cores[size_t(l.dir == 4 ? 0 : l.core)]);
        if (l.dir == 4)
            o = {{QStringLiteral("device"), l.core}, {QStringLiteral("to_device"), l.toDevice}};
        o.insert(QStringLiteral("direction"), QString::fromLatin1(kDirs[l.dir]));
        o.insert(QStringLiteral("words"), l.stats.words);
        o.insert(QStringLiteral("busy_cycles"), l.stats.busyCycles);
        o.insert(QStringLiteral("messages"), double(l.stats.messages));
        busiestLinks.append(o);
    }
    out.insert(QStringLiteral("links"), QJsonObject{{QStringLiteral("count"), double(links.size())},
                                                    {QStringLiteral("words"), words},
                                                    {QStringLiteral("busy_cycles"), busy},
                                                    {QStringLiteral("wafer_bytes"), waferBytes},
                                                    {QStringLiteral("busiest"), busiestLinks}});

    std::vector<size_t> order(cores.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return cores[a].stats.total().busy > cores[b].stats.total().busy; });
    QJsonArray busiest;
    for (size_t i = 0; i < order.size() && i < size_t(kListed); ++i) {
        const MeshCore& c = cores[order[i]];
        const CoreCycles t = c.stats.total();
        QJsonObject o = coreJson(c);
        o.insert(QStringLiteral("busy_cycles"), t.busy);
        o.insert(QStringLiteral("waiting_cycles"), t.waiting);
        o.insert(QStringLiteral("idle_cycles"), c.stats.idle(run.totalCycles));
        busiest.append(o);
    }
    out.insert(QStringLiteral("busiest_cores"), busiest);
    out.insert(QStringLiteral("cores"), double(cores.size()));
    out.insert(QStringLiteral("max_core_bytes"), double(run.maxCoreBytes));
    out.insert(QStringLiteral("sram_bytes_per_core"), double(run.sramBytesPerCore));
    return out;
}

void addCalibratedClosedForms(QJsonObject& out, const Placement& placement, const ModelConfig& model,
                              const WaferSpec& wafer, int64_t context, int layer)
{
    const auto& cal = shippedWaferCalibration();
    if (!cal)
        return;
    TimingParams params = cal->params;
    params.applyHardware(wafer);
    ScheduleOptions so;
    so.context = std::max<int64_t>(1, context);
    so.kv = KvPlacement::Shift;
    const TokenSchedule s = buildTokenSchedule(model, scheduleRegionsFromPlacement(placement), TimingModel(params), so);
    std::vector<double> cycles;
    for (const Phase& p : s.phases)
        if (layer < 0 || p.layer == layer)
            cycles.push_back(p.durationCycles());
    QJsonArray phases = out.value(QStringLiteral("phases")).toArray();
    if (size_t(phases.size()) != cycles.size())
        return; // not the same phase list (cannot happen for one placement)
    double total = 0;
    for (qsizetype i = 0; i < phases.size(); ++i) {
        QJsonObject p = phases[i].toObject();
        p.insert(QStringLiteral("calibrated_closed_form_cycles"), cycles[size_t(i)]);
        phases[i] = p;
        total += cycles[size_t(i)];
    }
    out.insert(QStringLiteral("phases"), phases);
    out.insert(QStringLiteral("calibrated_closed_form_cycles"), total);
    out.insert(QStringLiteral("calibration_profile"), QString::fromStdString(cal->profile));
}

} // namespace ws::cli
