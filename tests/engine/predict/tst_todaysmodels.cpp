// Today's models (issue 28, item 5): the presets deepseek-r1, kimi-k2, glm-4.7, llama-4-scout and gpt-oss-20b
// predict on every hardware preset; multi-head latent attention keeps its compressed KV cache in every predictor
// and in the wafer's KV placement; fp4 (MXFP4) stores 17 bytes per 32 weights. Every expected value below is
// written from the models' published config.json values (docs/sources.md [DeepSeek-V3-config], [Kimi-K2-config],
// [Llama-4-configs], [gpt-oss-config]) and the MXFP4 block ([OCP-MX]) by plain arithmetic, not read from the code
// under test.
#include "engine/calibration/measurementdata.h"
#include "engine/model/modelpresetparser.h"
#include "engine/model/modelshape.h"
#include "engine/model/precision.h"
#include "engine/predict/predictor.h"
#include "engine/wafer/dataflow/kvcapacity.h"
#include "engine/wafer/dataflow/layerwork.h"
#include "engine/wafer/placement/placer.h"

#include <QTest>

#include <cmath>
#include <string>
#include <vector>

using namespace ws;

Q_DECLARE_METATYPE(std::string)

namespace {
const std::vector<std::string> kNewModels{"deepseek-r1", "kimi-k2", "glm-4.7", "llama-4-scout", "gpt-oss-20b"};

std::vector<std::string> hardwareIds()
{
    std::vector<std::string> ids;
    for (const EmbeddedMeasurementFile& f : embeddedPresetFiles()) {
        const std::string name(f.name);
        if (name.rfind("hardware/", 0) == 0)
            ids.push_back(name.substr(9, name.size() - 9 - 5)); // "hardware/<id>.json"
    }
    return ids;
}

const ModelConfig& model(const std::string& id)
{
    const ModelConfig* m = shippedModel(id);
    if (!m)
        qFatal("no model preset %s", id.c_str());
    return *m;
}

// DeepSeek-V3/R1 config.json: 61 layers, kv_lora_rank 512, qk_rope_head_dim 64 -> 576 cached values per token
// per layer; 61 x 576 = 35,136 values per token over the model.
constexpr int64_t kDeepSeekLayers = 61;
constexpr int64_t kDeepSeekCachedPerLayer = 512 + 64;
constexpr int64_t kDeepSeekCachedValues = kDeepSeekLayers * kDeepSeekCachedPerLayer; // 35,136
} // namespace

class TestTodaysModels : public QObject
{
    Q_OBJECT
private slots:
    void everyNewPresetPredictsOnEveryHardware_data()
    {
        QTest::addColumn<std::string>("model");
        QTest::addColumn<std::string>("hardware");
        const std::vector<std::string> hardware = hardwareIds();
        QVERIFY(hardware.size() >= 7);
        for (const std::string& m : kNewModels)
            for (const std::string& h : hardware)
                QTest::newRow((m + " on " + h).c_str()) << m << h;
    }

    void everyNewPresetPredictsOnEveryHardware()
    {
        QFETCH(std::string, model);
        QFETCH(std::string, hardware);
        const ModelConfig& m = ::model(model);
        const HardwareSpec* hw = shippedHardware(hardware);
        QVERIFY(hw);
        Workload w;
        w.precision = m.nativePrecision;
        const auto p = predict(m, *hw, w);
        QVERIFY2(p, p ? "" : p.error().message().c_str());
        QVERIFY(std::isfinite(p->tokensPerSecondPerUser));
        QVERIFY(p->tokensPerSecondPerUser > 0);
        QVERIFY(p->devices >= 1);
        QVERIFY(p->kvCache.bytesPerToken > 0);
        QCOMPARE(p->kvCache.attention, std::string(m.isMla() ? "mla" : "gqa"));
        // The same model at fp4 predicts as well (4.25 bits per weight, every predictor).
        w.precision = Precision::Fp4;
        const auto q = predict(m, *hw, w);
        QVERIFY2(q, q ? "" : q.error().message().c_str());
        QVERIFY(std::isfinite(q->tokensPerSecondPerUser) && q->tokensPerSecondPerUser > 0);
    }

    void presetsCarryTheirPublishedShapes()
    {
        const ModelConfig& ds = model("deepseek-r1");
        QCOMPARE(ds.layers, 61);
        QCOMPARE(ds.hiddenSize, 7168);
        QCOMPARE(ds.headCount, 128);
        QCOMPARE(ds.kvLoraRank, 512);
        QCOMPARE(ds.qLoraRank, 1536);
        QCOMPARE(ds.qkRopeHeadDim, 64);
        QCOMPARE(ds.qkNopeHeadDim, 128);
        QCOMPARE(ds.vHeadDim, 128);
        QCOMPARE(ds.expertCount, 256);
        QCOMPARE(ds.expertsPerToken, 8);
        QCOMPARE(ds.sharedExpertCount, 1);
        QCOMPARE(ds.expertFfnSize, 2048);
        QCOMPARE(ds.ffnSize, 18432);
        QCOMPARE(ds.denseLayersFirst, 3);
        QCOMPARE(ds.vocabSize, 129280);
        QCOMPARE(ds.mtpLayers, 1);
        QVERIFY(!ds.isMoeLayer(2));
        QVERIFY(ds.isMoeLayer(3));
        const ModelConfig& kimi = model("kimi-k2");
        QCOMPARE(kimi.expertCount, 384);
        QCOMPARE(kimi.headCount, 64);
        QCOMPARE(kimi.denseLayersFirst, 1);
        QCOMPARE(kimi.vocabSize, 163840);
        QVERIFY(kimi.isMla());
        for (const std::string& id : kNewModels) // every number cites its source
            for (const char* field : {"layers", "hiddenSize", "headCount", "kvHeadCount", "vocabSize", "expertCount"})
                QVERIFY2(model(id).sources.count(field) == 1, (id + " " + field).c_str());
    }

    // Published totals, independent of ModelShape. The publishers count active parameters without the input
    // embedding table (a lookup) and with the LM head: DeepSeek-V3 671B in the main model and 36.6B active
    // "including 0.9B for the output head" (README_WEIGHTS), 11.5B in the MTP module; Llama 4 Scout 109B total
    // with its vision encoder and 17B active (both tables counted); gpt-oss-20b 20.9B total and 3.6B active (model
    // card).
    void parameterCountsMatchThePublishedTotals()
    {
        auto near = [](double got, double published, double tolerance) {
            return std::abs(got / published - 1.0) <= tolerance;
        };
        auto active = [](const ModelShape& s) { return double(s.activeParameters() - s.embeddingParameters()); };
        const ModelShape ds(model("deepseek-r1"));
        QVERIFY2(near(double(ds.totalParameters()), 671e9, 0.01), qPrintable(QString::number(ds.totalParameters())));
        QVERIFY2(near(active(ds), 36.6e9, 0.01), qPrintable(QString::number(active(ds))));
        QVERIFY2(near(double(ds.mtpParameters()), 11.5e9, 0.02), qPrintable(QString::number(ds.mtpParameters())));
        const ModelShape scout(model("llama-4-scout"));
        // Text decoder only: below the 109B that includes the vision encoder, within 3 %.
        QVERIFY2(double(scout.totalParameters()) < 109e9 && near(double(scout.totalParameters()), 109e9, 0.03),
                 qPrintable(QString::number(scout.totalParameters())));
        // Meta's "17B active" matches the count with both tables (17.2B; 16.1B without the input table).
        QVERIFY2(near(double(scout.activeParameters()), 17e9, 0.02),
                 qPrintable(QString::number(scout.activeParameters())));
        const ModelShape oss(model("gpt-oss-20b"));
        QVERIFY2(near(double(oss.totalParameters()), 20.9e9, 0.01), qPrintable(QString::number(oss.totalParameters())));
        QVERIFY2(near(active(oss), 3.6e9, 0.01), qPrintable(QString::number(active(oss))));
    }

    void mlaKvBytesPerTokenFollowFromTheConfig()
    {
        const ModelConfig& ds = model("deepseek-r1");
        const ModelShape shape(ds);
        // 61 layers x (512 + 64) values x 2 bytes = 70,272 bytes per token at 16 bits; 35,136 at 8 bits.
        QCOMPARE(shape.kvBytesPerToken(2), int64_t(70272));
        QCOMPARE(shape.kvBytesPerToken(1), int64_t(35136));
        QCOMPARE(shape.kvBytesPerToken(2), kDeepSeekCachedValues * 2);
        // Ordinary attention with the same heads would keep K (128 x 192) and V (128 x 128) per layer: 71x more.
        QCOMPARE(kDeepSeekLayers * 128 * (192 + 128) * 2 / shape.kvBytesPerToken(2), int64_t(71));
        // 4,096 tokens of context at 16 bits: 4,096 x 70,272 bytes.
        QCOMPARE(shape.kvBytes(4096, 2), int64_t(4096) * 70272);

        // Every predictor reports it; deepseek-r1 is released in fp8, so the GPU and LPU keep an 8-bit cache.
        Workload w;
        w.precision = ds.nativePrecision;
        for (const char* hw : {"h100", "b200", "groq-lpu"}) {
            const auto p = predict(ds, *shippedHardware(hw), w);
            QVERIFY2(p, hw);
            QCOMPARE(p->kvCache.attention, std::string("mla"));
            QCOMPARE(p->kvCache.valuesPerTokenPerLayer, kDeepSeekCachedPerLayer);
            QCOMPARE(p->kvCache.bytesPerToken, double(kDeepSeekCachedValues) * 1.0); // 35,136 bytes
        }
        w.precision = Precision::Bf16;
        const auto g = predict(ds, *shippedHardware("h200"), w);
        QVERIFY(g);
        QCOMPARE(g->kvCache.bytesPerToken, 70272.0);
        const auto wafer = predict(ds, *shippedHardware("wse3"), w);
        QVERIFY2(wafer, wafer ? "" : wafer.error().message().c_str());
        QCOMPARE(wafer->kvCache.bytesPerToken, 70272.0);
        QVERIFY(wafer->kvCapacityTokens > 0);

        // Kimi K2 has the same latent: 61 x 576 values whatever its 64 heads.
        QCOMPARE(ModelShape(model("kimi-k2")).kvBytesPerToken(1), kDeepSeekCachedValues);
    }

    void mlaAttentionCostIsTheAbsorbedForm()
    {
        const ModelConfig& ds = model("deepseek-r1");
        const int64_t context = 4096;
        // Absorbed decode: 128 heads score a 576-wide latent and RoPE key and sum 512-wide latents per cached
        // token: 128 x (576 + 512) = 139,264 MACs per cached token per layer, 2 FLOPs each, 61 layers.
        const double flops = 2.0 * 128 * (576 + 512) * double(context) * 61;
        QCOMPARE(ModelShape(ds).mlaAttentionFlops(context), flops);
        QCOMPARE(ModelShape(model("llama-4-scout")).mlaAttentionFlops(context), 0.0);

        // The wafer's attention phases on one region: scores over the 576-wide cache, values over the latent.
        const LayerDims dims = LayerDims::fromModel(ds, 10);
        QVERIFY(dims.isMla());
        QCOMPARE(dims.kvCacheWidth(), 576);
        const auto work = attentionWork(dims, 64, 64, 1, context, KvPlacement::Shift);
        double scores = -1;
        double values = -1;
        for (const PhaseWork& p : work) {
            if (p.kind == PhaseKind::AttnScores)
                scores = p.totalMacs;
            if (p.kind == PhaseKind::AttnValues)
                values = p.totalMacs;
        }
        QCOMPARE(scores, 128.0 * 576 * context);
        QCOMPARE(values, 128.0 * 512 * context);
        // A core of a 64-wide region keeps ceil(576 / 64) = 9 cached values per token: 18 bytes at 16 bits.
        TimingParams params;
        params.kvBytesPerValue = 2;
        QCOMPARE(kvCapacity(dims, 64, 64, 1 << 20, params).bytesPerTokenPerCore, 18.0);
    }

    void waferKvPlacementHoldsTheLatent()
    {
        const ModelConfig& ds = model("deepseek-r1");
        PlacementOptions o;
        o.precision = Precision::Fp8;
        o.contextTokens = 4096;
        const WaferSpec& wafer = shippedHardware("wse3")->wafer;
        const auto placed = placeModel(ds, wafer, o);
        QVERIFY2(placed, placed ? "" : placed.error().message().c_str());
        int checked = 0;
        for (const PlacedRegion& r : placed->regions) {
            if (r.layer < 0 || r.kvTokens == 0)
                continue;
            QCOMPARE(r.kvColumns, kDeepSeekCachedPerLayer);
            QCOMPARE(r.kvBytes(), int64_t(4096) * 576 * r.kvBytesPerValue);
            ++checked;
        }
        QCOMPARE(checked, 61); // every layer's region
    }

    void fp4IsMxfp4()
    {
        const auto p = parsePrecision("fp4");
        QVERIFY(p);
        QCOMPARE(*p, Precision::Fp4);
        QCOMPARE(std::string(precisionId(Precision::Fp4)), std::string("fp4"));
        // MXFP4: 32 E2M1 values in 16 bytes and one E8M0 scale byte: 17 bytes per 32, 4.25 bits [OCP-MX].
        QCOMPARE(bitsPerParameter(Precision::Fp4), 4.25);
        // A 4,096 x 4,096 matrix: 4,096 rows x 128 blocks x 17 bytes = 8,912,896 bytes.
        TensorShape t;
        t.kind = TensorKind::AttnQ;
        t.rows = 4096;
        t.cols = 4096;
        QCOMPARE(t.bytes(Precision::Fp4), int64_t(8912896));
        // gpt-oss-20b's stacked expert gate: 32 experts x 2,880 rows x 90 blocks x 17 bytes = 141,004,800 bytes.
        const ModelShape oss(model("gpt-oss-20b"));
        int64_t gate = 0;
        for (const TensorShape* s : oss.layerTensors(0))
            if (s->kind == TensorKind::ExpertGate)
                gate = s->bytes(Precision::Fp4);
        QCOMPARE(gate, int64_t(32) * 2880 * 90 * 17);
        QCOMPARE(gate, int64_t(141004800));
        // A preset may name fp4 as its precision.
        const auto parsed = parseModelPreset(R"({"version": 1, "kind": "model", "id": "x", "name": "x",
            "architecture": "llama", "fields": {
              "precision": {"value": "fp4", "source": "test"}, "layers": {"value": 2, "source": "test"},
              "hiddenSize": {"value": 64, "source": "test"}, "ffnSize": {"value": 128, "source": "test"},
              "headCount": {"value": 4, "source": "test"}, "kvHeadCount": {"value": 4, "source": "test"},
              "vocabSize": {"value": 32, "source": "test"}, "contextLength": {"value": 64, "source": "test"}}})",
                                             "x.json");
        QVERIFY2(parsed, parsed ? "" : parsed.error().message().c_str());
        QCOMPARE(parsed->nativePrecision, Precision::Fp4);
    }

    void mlaPresetsAreValidated()
    {
        ModelConfig c = model("deepseek-r1");
        c.headDim = 128; // not qk_nope + qk_rope
        QVERIFY(!validateModelConfig(c));
        c = model("deepseek-r1");
        c.vHeadDim = 0;
        QVERIFY(!validateModelConfig(c));
        c = model("deepseek-r1");
        c.denseLayersFirst = 62;
        QVERIFY(!validateModelConfig(c));
        c = model("llama-4-scout");
        c.qkRopeHeadDim = 64; // a latent width without a latent
        QVERIFY(!validateModelConfig(c));
    }
};

QTEST_GUILESS_MAIN(TestTodaysModels)
#include "tst_todaysmodels.moc"
