// Placement benchmark: time and peak memory to place Llama-3.1-405B (bf16) on
// WSE-3 wafers (target: under 200 ms and 300 MB), plus a one-device snapshot
// and a full per-core sweep for scale. Prints figures; asserts nothing.
#include "engine/hardware/hardwarepresetparser.h"
#include "engine/model/modelpresetparser.h"
#include "engine/wafer/placement/meshsnapshotbuilder.h"
#include "engine/wafer/placement/placer.h"

#include "tests/common/testmodels.h"

#include <QFile>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace {
long vmHwmKiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

QByteArray readPreset(const QString& rel)
{
    QFile f(wstest::sourcePath(rel));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(rel));
    return f.readAll();
}

double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

int main()
{
    const QByteArray hwText = readPreset(QStringLiteral("resources/presets/hardware/wse3.json"));
    const QByteArray modelText = readPreset(QStringLiteral("resources/presets/models/llama-3.1-405b.json"));
    const auto hw = ws::parseHardwarePreset(std::string_view(hwText.constData(), size_t(hwText.size())), "wse3.json");
    const auto model =
        ws::parseModelPreset(std::string_view(modelText.constData(), size_t(modelText.size())), "llama-3.1-405b.json");
    if (!hw || !model) {
        std::fprintf(stderr, "preset error\n");
        return 1;
    }
    ws::PlacementOptions options; // bf16, 8K context, phi_w 0.8, pipelined

    const long hwm0 = vmHwmKiB();
    const auto t0 = std::chrono::steady_clock::now();
    auto placed = ws::placeModel(*model, hw->wafer, options);
    const double placeMs = msSince(t0);
    const long hwm1 = vmHwmKiB();
    if (!placed) {
        std::fprintf(stderr, "%s\n", placed.error().message().c_str());
        return 1;
    }
    std::printf("bench_placement: llama-3.1-405b bf16 on wse3: %d wafers, %zu regions\n", placed->deviceCount,
                placed->regions.size());
    std::printf("  place:            %8.2f ms, peak RSS delta %ld KiB (VmHWM %ld -> %ld KiB)\n", placeMs, hwm1 - hwm0,
                hwm0, hwm1);

    const auto t1 = std::chrono::steady_clock::now();
    const ws::CoreBytes totals = placed->totalBytes();
    std::printf("  closed-form totals: %6.2f ms (used %.1f GB of %.1f GB)\n", msSince(t1), double(totals.used()) / 1e9,
                double(placed->sramTotalBytes()) / 1e9);

    const auto t2 = std::chrono::steady_clock::now();
    const auto detail = placed->coreDetail(0, 400, 600);
    std::printf("  coreDetail:       %8.4f ms (%zu tiles)\n", msSince(t2), detail ? detail->tiles.size() : size_t(0));

    const auto t3 = std::chrono::steady_clock::now();
    const ws::MeshSnapshot snap = ws::buildMeshSnapshot(*placed, 0, 1);
    const double snapMs = msSince(t3);
    std::printf("  snapshot 1 wafer: %8.2f ms (%d x %d cores), VmHWM now %ld KiB\n", snapMs, snap.meshCols,
                snap.meshRows, vmHwmKiB());

    const auto t4 = std::chrono::steady_clock::now();
    int64_t sum = 0;
    for (int d = 0; d < 1; ++d)
        for (int y = 0; y < placed->usableRows; ++y)
            for (int x = 0; x < placed->usableCols; ++x)
                sum += placed->coreBytes(d, x, y).weightBytes();
    std::printf("  coreBytes() over every core of wafer 0: %8.1f ms (weights %lld bytes)\n", msSince(t4),
                static_cast<long long>(sum));
    return 0;
}
