// Tiled execution of stories260K on a small wafer: every GEMV as per-core
// partial products over the placement's tiles plus the reduction of the
// partial sums must give the dense decode engine's logits.

#include "engine/decode/decodemodel.h"
#include "engine/decode/forward.h"
#include "engine/decode/runstate.h"
#include "engine/decode/threadpool.h"
#include "engine/model/ggufmodelimporter.h"
#include "engine/wafer/placement/placer.h"
#include "engine/wafer/tiledexecutor.h"

#include "tests/common/presetfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace {

// The WSE-3 preset's core (SRAM, program bytes, clock) on a 40 x 40 fabric, so
// that a 260K-parameter model spreads each layer over a multi-core region.
ws::WaferSpec smallWafer()
{
    ws::WaferSpec w = wstest::hardwarePreset(QStringLiteral("wse3")).wafer;
    w.meshCols = 40;
    w.meshRows = 40;
    w.reservedCols = 2;
    w.reservedRows = 2;
    w.reservedLeftCols = 1;
    w.reservedTopRows = 1;
    w.diesX = 1;
    w.diesY = 1;
    return w;
}

ws::Placement placeStories(const std::string& path)
{
    auto model = ws::importGgufModel(path);
    if (!model)
        qFatal("%s", model.error().message().c_str());
    ws::PlacementOptions o;
    o.precision = ws::Precision::Fp32;
    o.contextTokens = 64;
    auto p = ws::placeModel(*model, smallWafer(), o);
    if (!p)
        qFatal("%s", p.error().message().c_str());
    return *p;
}

} // namespace

class TstTiledExecution : public QObject
{
    Q_OBJECT

private slots:
    void logitsMatchDenseForward()
    {
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        WS_REQUIRE_MODEL(refPath, "stories260K/stories260K.reference.json");
        QFile refFile(QString::fromStdString(refPath));
        QVERIFY(refFile.open(QIODevice::ReadOnly));
        const QJsonObject result =
            QJsonDocument::fromJson(refFile.readAll()).object()["results"].toArray()[0].toObject();
        QCOMPARE(result["prompt"].toString(), QStringLiteral("Once upon a time"));
        std::vector<ws::TokenId> prompt;
        for (const auto& id : result["prompt_ids_with_bos"].toArray())
            prompt.push_back(ws::TokenId(id.toInt()));
        QCOMPARE(prompt.size(), size_t(5));

        auto model = ws::DecodeModel::load(path);
        QVERIFY2(model.hasValue(), model ? "" : model.error().message().c_str());
        const ws::Placement placement = placeStories(path);
        const int context = 64;
        auto tiled = ws::TiledExecutor::create(placement, model->config(), model->weights(), context);
        QVERIFY2(tiled.hasValue(), tiled ? "" : tiled.error().message().c_str());

        qInfo("placement: %d regions, %zu cores hold %d tiles", int(placement.regions.size()), tiled->cores().size(),
              tiled->tileCount());
        // Every layer's matrices are split over several cores, so the partial sums really are reduced.
        for (int layer = 0; layer < model->config().layerCount; ++layer) {
            const int gate = tiled->matrixCores(ws::TensorKind::FfnGate, layer);
            const int down = tiled->matrixCores(ws::TensorKind::FfnDown, layer);
            const int q = tiled->matrixCores(ws::TensorKind::AttnQ, layer);
            qInfo("layer %d: attn_q on %d cores, ffn_gate on %d, ffn_down on %d", layer, q, gate, down);
            QVERIFY2(gate >= 4 && down >= 4 && q >= 4,
                     "a layer matrix on fewer than 4 cores: the test would be trivial");
        }
        QVERIFY(tiled->tileCount() > int(tiled->cores().size()) / 2);

        ws::RunState state(model->config(), context, 1, 1);
        ws::ThreadPool pool(1);
        float worst = 0.0f;
        for (size_t pos = 0; pos < prompt.size(); ++pos) {
            const ws::TokenId token = prompt[pos];
            const auto dense = ws::forward(model->config(), model->weights(), state, pool, {&token, 1}, int(pos));
            QVERIFY2(dense.hasValue(), dense ? "" : dense.error().message().c_str());
            const auto step = tiled->step(token, int(pos));
            QVERIFY2(step.hasValue(), step ? "" : step.error().message().c_str());
            QCOMPARE(tiled->logits().size(), state.logits.size());
            float diff = 0.0f;
            for (size_t i = 0; i < state.logits.size(); ++i)
                diff = std::max(diff, std::fabs(tiled->logits()[i] - state.logits[i]));
            qInfo("position %zu: max |tiled - dense| logit difference %.3g", pos, double(diff));
            QVERIFY2(diff <= 1e-6f, qPrintable(QStringLiteral("position %1: difference %2").arg(pos).arg(diff)));
            worst = std::max(worst, diff);
        }
        // The tiled logits also pick the reference engine's first generated token.
        const auto& logits = tiled->logits();
        const auto best = std::max_element(logits.begin(), logits.end()) - logits.begin();
        QCOMPARE(int(best), result["generated_ids"].toArray()[0].toInt());
        qInfo("max abs logit difference over the prompt: %.3g", double(worst));

        double magnitude = 0.0;
        for (const auto& c : tiled->cores())
            magnitude += c.partialMagnitude;
        QVERIFY(magnitude > 0.0);
    }

    void brokenCoverageIsAnError_data()
    {
        QTest::addColumn<int>("change");
        QTest::newRow("row missing from a tensor") << 0;
        QTest::newRow("tensor placed twice") << 1;
        QTest::newRow("tensor absent") << 2;
    }

    void brokenCoverageIsAnError()
    {
        QFETCH(int, change);
        WS_REQUIRE_MODEL(path, "stories260K/stories260K.gguf");
        auto model = ws::DecodeModel::load(path);
        QVERIFY(model.hasValue());
        ws::Placement placement = placeStories(path);
        ws::PlacedRegion* region = nullptr;
        size_t index = 0;
        for (auto& r : placement.regions)
            for (size_t i = 0; i < r.tensors.size(); ++i)
                if (r.tensors[i].kind == ws::TensorKind::FfnUp && r.tensors[i].layer == 1) {
                    region = &r;
                    index = i;
                }
        QVERIFY(region);
        if (change == 0)
            region->tensors[index].rows -= 1;
        else if (change == 1)
            region->tensors.push_back(region->tensors[index]);
        else
            region->tensors.erase(region->tensors.begin() + std::ptrdiff_t(index));
        auto tiled = ws::TiledExecutor::create(placement, model->config(), model->weights(), 64);
        QVERIFY(!tiled.hasValue());
        qInfo("%s", tiled.error().message().c_str());
        QVERIFY(tiled.error().message().find("ffn_up of layer 1") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstTiledExecution)
#include "tst_tiledexecution.moc"
