// A mesh engine run played as heatmap frames (engine/wafer/mesh/meshplayback.h):
// the executed schedule is the engine's phases with the engine's times; a
// frame's computing cores are exactly the cores whose compute events run at
// that cycle (checked against every event, not through the playback's time
// index); a reduction shows as cores forwarding along lines, not one flat
// region, and its wavefront moves; an ended event fades over the trail; the
// hop to the next layer is drawn as an arrow. The Links layer carries every
// word the fabric counted on its links (each message's words times its hops),
// per core the words leaving its router; the Values layer puts each core's
// signed sum at 0.5 + half of it over the largest, cores without a value as
// no data. A frame's glow, read through the playback's time index, equals
// the glow computed from every event (the definition, written out here) to
// the bit, on small fabrics of random events, sweeping forwards, backwards
// and jumping, for every device, with and without trails, on meshes that clip.

#include "engine/wafer/mesh/meshplayback.h"

#include "tests/common/presetfixture.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <utility>

namespace {

using Cells = std::set<std::pair<int, int>>;

struct Played
{
    wstest::PlacedPreset placed;
    std::shared_ptr<const ws::MeshPlayback> playback;
};

Played playLayer(const char* model, const char* hardware, int layer)
{
    Played p{wstest::placePreset(QString::fromLatin1(model), QString::fromLatin1(hardware)), nullptr};
    ws::MeshOptions o;
    o.context = 512;
    o.layer = layer;
    auto run = ws::executeMeshToken(p.placed.placement, p.placed.model,
                                    ws::MeshParams::fromHardware(p.placed.hardware.wafer), o);
    if (!run)
        qFatal("%s", run.error().message().c_str());
    p.playback = std::make_shared<ws::MeshPlayback>(std::make_shared<ws::MeshRun>(std::move(*run)));
    return p;
}

std::vector<float> glow(const Played& p, double cycle, double trail)
{
    ws::DataflowFrameOptions o;
    o.cycle = cycle;
    o.trailCycles = trail;
    std::vector<float> out;
    p.playback->fillGlow(p.placed.placement.fabricCols, p.placed.placement.fabricRows, o, out);
    return out;
}

Cells cellsWhere(const Played& p, const std::vector<float>& values, float low, float high)
{
    Cells c;
    const int cols = p.placed.placement.fabricCols;
    for (size_t i = 0; i < values.size(); ++i)
        if (values[i] >= low && values[i] <= high)
            c.insert({int(i % size_t(cols)), int(i / size_t(cols))});
    return c;
}

// The size of the placement's mesh, all fillLayer reads of its base.
std::shared_ptr<const ws::MeshSnapshot> baseOf(const Played& p)
{
    auto s = std::make_shared<ws::MeshSnapshot>();
    s->meshCols = p.placed.placement.fabricCols;
    s->meshRows = p.placed.placement.fabricRows;
    s->deviceCount = p.placed.placement.deviceCount;
    return s;
}

const ws::Phase& phaseOf(const ws::TokenSchedule& s, ws::PhaseKind kind)
{
    for (const ws::Phase& ph : s.phases)
        if (ph.kind == kind)
            return ph;
    qFatal("no such phase");
}

// The glow by its definition, from every event (meshplayback.h): each core's latest compute event that started by
// the cycle (of equal starts, the later event) glows as computing if it ends within the trail; every message or
// multicast that started by the cycle and ends within the trail lights the cores its head has passed, x first.
std::vector<float> referenceGlow(const ws::MeshRun& run, int cols, int rows, const ws::DataflowFrameOptions& o)
{
    std::vector<float> out(size_t(cols) * size_t(rows), 0.0f);
    if (!(run.totalCycles > 0))
        return out;
    double t = std::fmod(o.cycle, run.totalCycles);
    if (t < 0)
        t += run.totalCycles;
    const double trail = std::max(0.0, o.trailCycles);
    const double from = t - trail;
    const auto& events = run.fabric->events();
    const auto& cores = run.fabric->cores();
    const double hop = std::max(1e-9, run.fabric->params().hopCycles);
    const bool all = o.device == ws::DataflowFrameOptions::allDevices;
    const auto weight = [&](const ws::MeshEvent& e) {
        return e.end >= t || trail <= 0 ? 1.0f : float(1.0 - (t - e.end) / trail);
    };
    const auto put = [&](int x, int y, float v) {
        if (x >= 0 && y >= 0 && x < cols && y < rows) {
            float& cell = out[size_t(y) * size_t(cols) + size_t(x)];
            cell = std::max(cell, v);
        }
    };
    std::vector<int> latest(cores.size(), -1);
    for (size_t i = 0; i < events.size(); ++i) {
        const ws::MeshEvent& e = events[i];
        if (e.kind == ws::MeshEventKind::Compute && e.start <= t &&
            (latest[size_t(e.core)] < 0 || e.start >= events[size_t(latest[size_t(e.core)])].start))
            latest[size_t(e.core)] = int(i);
    }
    for (size_t c = 0; c < cores.size(); ++c) {
        if (latest[c] < 0 || (!all && cores[c].device != o.device))
            continue;
        const ws::MeshEvent& e = events[size_t(latest[c])];
        if (e.end >= from)
            put(cores[c].x, cores[c].y, 0.5f + 0.5f * weight(e));
    }
    for (const ws::MeshEvent& e : events) {
        if (e.kind != ws::MeshEventKind::Message && e.kind != ws::MeshEventKind::Multicast)
            continue;
        const ws::MeshCore& a = cores[size_t(e.core)];
        const ws::MeshCore& z = cores[size_t(e.toCore)];
        if (e.start > t || e.end < from || (!all && a.device != o.device))
            continue;
        const int dx = std::abs(z.x - a.x), dy = std::abs(z.y - a.y);
        int passed = std::min(dx + dy, int((t - e.start) / hop));
        const float v = 0.49f * weight(e);
        int x = a.x, y = a.y;
        put(x, y, v);
        for (; passed > 0 && x != z.x; --passed)
            put(x += z.x > x ? 1 : -1, y, v);
        for (; passed > 0 && y != z.y; --passed)
            put(x, y += z.y > y ? 1 : -1, v);
    }
    return out;
}

// A fabric of `devices` x cols x rows cores with random compute events (some of no cycles, some starting together),
// messages and multicasts of random lengths in random directions, and messages between devices.
ws::MeshRun randomRun(unsigned seed, int devices, int cols, int rows, int operations)
{
    std::mt19937 rng(seed);
    ws::MeshParams params;
    params.hopCycles = std::uniform_int_distribution<int>(0, 1)(rng) ? 1.0 : 2.5;
    params.interWaferLatencyCycles = 7;
    auto fabric = std::make_shared<ws::MeshFabric>(params);
    fabric->setMesh(cols, rows);
    fabric->setPhase(0, ws::PhaseKind::FfnDown);
    const auto uniform = [&](double low, double high) {
        return std::uniform_real_distribution<double>(low, high)(rng);
    };
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
    const auto core = [&](int device) { return fabric->coreIndex(device, pick(cols), pick(rows)); };
    const double span = 40.0 * operations / (cols * rows);
    for (int i = 0; i < operations; ++i) {
        const int device = pick(devices);
        const ws::Ready at{uniform(0, span), -1};
        const int kind = pick(10);
        if (kind < 5) {
            const double cycles = pick(6) == 0 ? 0.0 : pick(3) == 0 ? double(pick(40)) : uniform(0.5, 60);
            fabric->compute(core(device), at, cycles);
        } else if (kind < 9) {
            const int from = core(device);
            int to = core(device);
            if (pick(3) == 0) { // a line: along one axis, as the reductions send
                const ws::MeshCore a = fabric->cores()[size_t(from)];
                to = pick(2) ? fabric->coreIndex(device, pick(cols), a.y) : fabric->coreIndex(device, a.x, pick(rows));
            }
            fabric->send(from, to, double(pick(30)), at,
                         pick(2) ? ws::MeshEventKind::Message : ws::MeshEventKind::Multicast, pick(2) == 0);
        } else if (devices > 1) {
            fabric->sendAcross(core(device), core((device + 1) % devices), double(1 + pick(20)), at);
        }
    }
    ws::MeshRun run;
    for (const ws::MeshEvent& e : fabric->events())
        run.totalCycles = std::max(run.totalCycles, e.end);
    run.fabric = fabric;
    return run;
}

} // namespace

class TstMeshPlayback : public QObject
{
    Q_OBJECT

private slots:
    void executedScheduleIsTheEngines()
    {
        const Played p = playLayer("llama-3.1-8b", "wse3", 0);
        const ws::MeshRun& run = p.playback->run();
        const ws::TokenSchedule& s = p.playback->schedule();
        QCOMPARE(s.phases.size(), run.phases.size());
        QVERIFY(s.phases.size() >= 10);
        QCOMPARE(s.totalCycles, run.totalCycles);
        double start = 0;
        for (size_t i = 0; i < s.phases.size(); ++i) {
            QCOMPARE(s.phases[i].kind, run.phases[i].kind);
            QCOMPARE(s.phases[i].startCycle, start);
            QCOMPARE(s.phases[i].endCycle, run.phases[i].endCycle);
            QVERIFY(s.phases[i].rect == run.phases[i].step.rect);
            start = s.phases[i].endCycle;
        }
    }

    // Without a trail, a core glows as computing exactly when one of its compute events runs.
    void computingCoresAreTheComputeEvents()
    {
        const Played p = playLayer("llama-3.1-8b", "wse3", 0);
        const ws::MeshRun& run = p.playback->run();
        const auto& cores = run.fabric->cores();
        int checked = 0;
        for (int k = 1; k < 40; ++k) {
            const double t = run.totalCycles * k / 40.0;
            Cells expected;
            for (const ws::MeshEvent& e : run.fabric->events())
                if (e.kind == ws::MeshEventKind::Compute && e.start <= t && e.end >= t)
                    expected.insert({cores[size_t(e.core)].x, cores[size_t(e.core)].y});
            const Cells shown = cellsWhere(p, glow(p, t, 0), 0.99f, 1.0f);
            QCOMPARE(shown, expected);
            checked += int(expected.size());
        }
        QVERIFY2(checked > 1000, qPrintable(QString::number(checked)));
    }

    // In the middle of the FFN down projection's reduction, some cores of the region forward partial sums and
    // others do not: the region does not light up alike, and 20 cycles later the forwarding cores have moved on.
    void reductionIsAWavefront()
    {
        const Played p = playLayer("llama-3.1-8b", "wse3", 0);
        const ws::Phase& down = phaseOf(p.playback->schedule(), ws::PhaseKind::FfnDown);
        const double t = down.computeEndCycle + 0.4 * (down.endCycle - down.computeEndCycle);
        const std::vector<float> now = glow(p, t, 0);
        const Cells forwarding = cellsWhere(p, now, 0.01f, 0.49f);
        const Cells dark = cellsWhere(p, now, 0.0f, 0.0f);
        int inRegionForwarding = 0, inRegionDark = 0;
        const ws::CoreRect& r = down.rect;
        for (int y = r.y; y < r.y + r.height; ++y)
            for (int x = r.x; x < r.x + r.width; ++x) {
                inRegionForwarding += int(forwarding.count({x, y}));
                inRegionDark += int(dark.count({x, y}));
            }
        QVERIFY2(inRegionForwarding > 0 && inRegionDark > 0,
                 qPrintable(QStringLiteral("%1 forwarding, %2 dark").arg(inRegionForwarding).arg(inRegionDark)));
        QVERIFY(cellsWhere(p, glow(p, t + 20, 0), 0.01f, 0.49f) != forwarding);
    }

    // An event that ended half a trail ago still glows, dimmer; one that ended more than a trail ago does not.
    void endedEventsFade()
    {
        const Played p = playLayer("llama-3.1-8b", "wse3", 0);
        const ws::MeshRun& run = p.playback->run();
        const double trail = 50;
        // The last compute event of its core that ends two trails before the run does.
        std::map<int, const ws::MeshEvent*> lastOfCore;
        for (const ws::MeshEvent& e : run.fabric->events())
            if (e.kind == ws::MeshEventKind::Compute && (!lastOfCore[e.core] || e.end > lastOfCore[e.core]->end))
                lastOfCore[e.core] = &e;
        const ws::MeshEvent* last = nullptr;
        for (const auto& [core, e] : lastOfCore)
            if (e->end + 2 * trail < run.totalCycles && (!last || e->end > last->end))
                last = e;
        QVERIFY(last);
        const ws::MeshCore& c = run.fabric->cores()[size_t(last->core)];
        const size_t cell = size_t(c.y) * size_t(p.placed.placement.fabricCols) + size_t(c.x);
        const float half = glow(p, last->end + trail / 2, trail)[cell];
        QVERIFY2(half > 0.5f && half < 1.0f, qPrintable(QString::number(half)));
        QVERIFY(glow(p, last->end + trail * 1.5, trail)[cell] < 0.5f); // at most a message passing by
    }

    // The frame of the hop to the next layer carries its arrow, and the frame's activity is the glow's.
    void hopIsAnArrow()
    {
        const Played p = playLayer("llama-3.1-8b", "wse3", 0);
        const ws::Phase& hop = phaseOf(p.playback->schedule(), ws::PhaseKind::LayerHop);
        auto base = std::make_shared<ws::MeshSnapshot>();
        base->meshCols = p.placed.placement.fabricCols;
        base->meshRows = p.placed.placement.fabricRows;
        base->deviceCount = 1;
        ws::MeshFrame frame;
        frame.base = base;
        ws::DataflowFrameOptions o;
        o.cycle = 0.5 * (hop.startCycle + hop.endCycle);
        p.playback->fillFrame(frame, o);
        QCOMPARE(frame.hops.size(), size_t(1));
        QVERIFY(frame.hops[0].progress > 0 && frame.hops[0].progress < 1);
        QCOMPARE(frame.activity.size(), size_t(1));
        QVERIFY(frame.activity[0] == glow(p, o.cycle, 0));
    }

    void linksCarryEveryLinkWord()
    {
        const Played p = playLayer("llama-3.1-8b", "wse2", 0);
        const ws::MeshRun& run = p.playback->run();
        // Independent of the links' own counters: the phases' words x hops, summed as each message was routed.
        double routed = 0;
        for (const ws::MeshPhase& ph : run.phases)
            routed += ph.traffic.linkWords;
        double loads = 0;
        std::map<std::pair<int, int>, double> router;
        for (const ws::MeshLinkLoad& l : p.playback->linkLoads()) {
            QVERIFY(l.words > 0 && l.dir >= 0 && l.dir <= 3);
            loads += l.words;
            router[{l.x, l.y}] += l.words;
        }
        QVERIFY(routed > 0);
        QVERIFY2(std::abs(loads - routed) <= 1e-6 * routed,
                 qPrintable(QStringLiteral("%1 vs %2").arg(loads).arg(routed)));

        ws::MeshFrame frame;
        frame.base = baseOf(p);
        p.playback->fillLayer(frame, ws::MeshLayer::Links, 0);
        QCOMPARE(frame.overlayTop, p.playback->maxRouterWords());
        QCOMPARE(frame.links.size(), p.playback->linkLoads().size());
        const int cols = frame.base->meshCols;
        const std::vector<float>& cells = frame.activity.at(0);
        float top = 0;
        int lit = 0;
        for (size_t i = 0; i < cells.size(); ++i) {
            const auto it = router.find({int(i % size_t(cols)), int(i / size_t(cols))});
            const double expected = it == router.end() ? 0.0 : it->second;
            QVERIFY(std::abs(cells[i] * frame.overlayTop - expected) <= 1e-3 * frame.overlayTop);
            top = std::max(top, cells[i]);
            lit += cells[i] > 0;
        }
        QCOMPARE(top, 1.0f);
        QVERIFY(lit > 1000); // the layer's reduction lines, not a few cores
        // Per core (the inspector's rows), on a sample of cores (each call reads every event): a router's words are
        // its links' (checked above against the routed words), and the reduction's cores send and receive.
        int sampled = 0, both = 0;
        for (size_t c = 0; c < run.fabric->cores().size(); c += 211) {
            const ws::MeshCore& core = run.fabric->cores()[c];
            const ws::MeshPlayback::CoreTraffic t = p.playback->coreTraffic(int(c));
            const auto it = router.find({core.x, core.y});
            QCOMPARE(t.routerWords, it == router.end() ? 0.0 : it->second);
            QVERIFY(t.wordsOut >= 0 && t.wordsIn >= 0 && (t.messagesOut > 0) == (t.wordsOut > 0));
            ++sampled;
            both += t.messagesOut > 0 && t.messagesIn > 0;
        }
        QVERIFY2(sampled > 100 && both > sampled / 2, qPrintable(QStringLiteral("%1 of %2").arg(both).arg(sampled)));
        QCOMPARE(p.playback->coreTraffic(-1).messagesOut, 0);
        // A Dataflow frame refilled from the same frame drops the links.
        ws::DataflowFrameOptions o;
        p.playback->fillFrame(frame, o);
        QVERIFY(frame.links.empty() && frame.overlayTop == 0);
    }

    void glowIsTheEventsDefinition_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<int>("devices");
        QTest::addColumn<int>("operations");
        QTest::addColumn<double>("runShare"); // the run's cycles as a share of its last event's end
        QTest::addColumn<int>("clip");        // columns and rows the mesh shown lacks (negative: has more)
        QTest::newRow("one device") << 1u << 1 << 3000 << 1.0 << 0;
        QTest::newRow("two devices") << 2u << 2 << 4000 << 1.0 << 0;
        QTest::newRow("sparse") << 3u << 2 << 300 << 1.0 << 0;
        QTest::newRow("dense") << 4u << 1 << 20000 << 1.0 << 0;
        QTest::newRow("mesh shown smaller") << 5u << 2 << 3000 << 1.0 << 3;
        QTest::newRow("mesh shown larger") << 6u << 1 << 3000 << 1.0 << -4;
        QTest::newRow("events past the run's end") << 7u << 2 << 3000 << 0.7 << 0;
    }

    void glowIsTheEventsDefinition()
    {
        QFETCH(unsigned, seed);
        QFETCH(int, devices);
        QFETCH(int, operations);
        QFETCH(double, runShare);
        QFETCH(int, clip);
        const int cols = 23, rows = 17;
        ws::MeshRun run = randomRun(seed, devices, cols, rows, operations);
        run.totalCycles *= runShare;
        const auto shared = std::make_shared<const ws::MeshRun>(run);
        const ws::MeshPlayback playback(shared);
        const int shownCols = cols - clip, shownRows = rows - clip;
        std::mt19937 rng(seed * 31 + 1);
        const double total = run.totalCycles;
        // Forwards in small steps, backwards, random jumps (also outside the run, taken modulo it), and the cycles
        // where events start and end, where a trail reaches an event's end exactly.
        std::vector<double> cycles;
        for (int i = 0; i <= 100; ++i)
            cycles.push_back(total * i / 100.0);
        for (int i = 100; i >= 0; i -= 3)
            cycles.push_back(total * i / 100.0 + 0.25);
        for (int i = 0; i < 50; ++i)
            cycles.push_back(std::uniform_real_distribution<double>(-total, 2 * total)(rng));
        const auto& events = run.fabric->events();
        for (int i = 0; i < 60; ++i) {
            const ws::MeshEvent& e = events[std::uniform_int_distribution<size_t>(0, events.size() - 1)(rng)];
            cycles.insert(cycles.end(), {e.start, e.end, e.end + 12.0, e.end + 0.5});
        }
        const double trails[] = {0.0, 0.5, 12.0, 90.0, std::numeric_limits<double>::infinity()};
        int lit = 0, forwarding = 0, frames = 0;
        for (const int device : {0, devices - 1, int(ws::DataflowFrameOptions::allDevices)}) {
            for (const double trail : trails) {
                for (const double cycle : cycles) {
                    ws::DataflowFrameOptions o;
                    o.device = device;
                    o.cycle = cycle;
                    o.trailCycles = trail;
                    std::vector<float> fast(7, 3.0f); // stale contents, the wrong size: all replaced
                    playback.fillGlow(shownCols, shownRows, o, fast);
                    const std::vector<float> expected = referenceGlow(run, shownCols, shownRows, o);
                    QCOMPARE(fast.size(), expected.size());
                    if (std::memcmp(fast.data(), expected.data(), fast.size() * sizeof(float)) != 0) {
                        size_t i = 0;
                        while (std::memcmp(&fast[i], &expected[i], sizeof(float)) == 0)
                            ++i;
                        QFAIL(qPrintable(QStringLiteral("device %1, cycle %2, trail %3: cell (%4, %5) is %6, not %7")
                                             .arg(device)
                                             .arg(cycle, 0, 'g', 17)
                                             .arg(trail)
                                             .arg(i % size_t(shownCols))
                                             .arg(i / size_t(shownCols))
                                             .arg(double(fast[i]), 0, 'g', 9)
                                             .arg(double(expected[i]), 0, 'g', 9)));
                    }
                    for (float v : fast) {
                        lit += v >= 0.5f;
                        forwarding += v > 0 && v < 0.5f;
                    }
                    ++frames;
                }
            }
        }
        // The comparison saw both kinds of glow in plenty, not empty frames.
        QVERIFY2(
            lit > 10 * frames && forwarding > 10 * frames,
            qPrintable(
                QStringLiteral("%1 computing, %2 forwarding over %3 frames").arg(lit).arg(forwarding).arg(frames)));
    }

    void valuesAreSignedAroundTheMiddle()
    {
        const Played timed = playLayer("llama-3.1-8b", "wse2", 0);
        std::vector<ws::MeshCoreValue> values{{0, 3, 4, 2.0, -2.0}, {0, 5, 4, 1.0, 0.5}, {1, 0, 0, 9.0, 8.0}};
        const ws::MeshPlayback p(std::make_shared<ws::MeshRun>(timed.playback->run()), values);
        QVERIFY(p.hasValues());
        QCOMPARE(p.maxAbsValue(), 8.0);
        ws::MeshFrame frame;
        frame.base = baseOf(timed);
        p.fillLayer(frame, ws::MeshLayer::Values, 0);
        QCOMPARE(frame.overlayTop, 8.0);
        const int cols = frame.base->meshCols;
        const std::vector<float>& cells = frame.activity.at(0);
        QCOMPARE(cells[size_t(4 * cols + 3)], 0.5f - 0.5f * 2.0f / 8.0f);
        QCOMPARE(cells[size_t(4 * cols + 5)], 0.5f + 0.5f * 0.5f / 8.0f);
        QVERIFY(std::isnan(cells[0])); // no value: no data, not zero
        QVERIFY(p.valueAt(0, 5, 4) && p.valueAt(0, 5, 4)->partialSum == 0.5);
        QVERIFY(!p.valueAt(0, 4, 4) && !p.valueAt(1, 3, 4));
        // Without values the layer is all no data.
        timed.playback->fillLayer(frame, ws::MeshLayer::Values, 0);
        QVERIFY(std::isnan(frame.activity.at(0)[size_t(4 * cols + 3)]));
        QCOMPARE(frame.overlayTop, 0.0);
    }
};

QTEST_GUILESS_MAIN(TstMeshPlayback)
#include "tst_meshplayback.moc"
