// Every ggml tensor type the engine reads: decoded rows against a scalar decoder of the block format
// written here from the format description, dot products against the decoded values, and greedy
// decoding of llama.cpp-quantised models against llama.cpp's own greedy ids (data in data/ggmltypes).
#include "engine/decode/decodemodel.h"
#include "engine/decode/forward.h"
#include "engine/decode/generator.h"
#include "engine/decode/kernels.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/common/testmodels.h"

#include <nlohmann/json.hpp>

#include <QDir>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

using namespace ws;

Q_DECLARE_METATYPE(ws::GgmlType)

namespace {

float half(const uint8_t* p)
{
    uint16_t h;
    std::memcpy(&h, p, 2);
    return f16ToF32(h);
}

int bit(const uint8_t* bytes, int i)
{
    return (bytes[i / 8] >> (i % 8)) & 1;
}

// 4-bit field i of a Q4_0-style 16-byte array (values 0..15 low nibbles, 16..31 high nibbles).
int nibble32(const uint8_t* qs, int i)
{
    return i < 16 ? qs[i] & 15 : qs[i - 16] >> 4;
}

// The 6-bit scale and minimum j of a Q4_K/Q5_K 12-byte scale array.
void scaleMin(const uint8_t* s, int j, int& sc, int& m)
{
    if (j < 4) {
        sc = s[j] & 63;
        m = s[j + 4] & 63;
    } else {
        sc = (s[j + 4] & 15) | ((s[j - 4] >> 6) << 4);
        m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
    }
}

// Value i of one block, straight from the block format.
double referenceValue(GgmlType t, const uint8_t* b, int i)
{
    const int8_t iq4[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
    const int8_t fp4[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};
    switch (t) {
    case GgmlType::Q4_1:
        return half(b) * nibble32(b + 4, i) + half(b + 2);
    case GgmlType::Q5_0:
        return half(b) * ((nibble32(b + 6, i) | bit(b + 2, i) << 4) - 16);
    case GgmlType::Q5_1:
        return half(b) * (nibble32(b + 8, i) | bit(b + 4, i) << 4) + half(b + 2);
    case GgmlType::IQ4_NL:
        return half(b) * iq4[nibble32(b + 2, i)];
    case GgmlType::MXFP4:
        return std::ldexp(1.0, b[0] - 128) * fp4[nibble32(b + 1, i)];
    case GgmlType::Q2_K: { // scales[16] qs[64] d dmin; values in 128-halves, 4 shifts of 32
        const int h = i / 128, shift = 2 * ((i % 128) / 32), l = i % 32;
        const int q = (b[16 + 32 * h + l] >> shift) & 3;
        const int s = b[i / 16];
        return half(b + 80) * (s & 15) * q - half(b + 82) * (s >> 4);
    }
    case GgmlType::Q3_K: { // hmask[32] qs[64] scales[12] d
        const int h = i / 128, shift = 2 * ((i % 128) / 32), l = i % 32;
        const int q = ((b[32 + 32 * h + l] >> shift) & 3) - (((b[l] >> (i / 32)) & 1) ? 0 : 4);
        const uint8_t* s = b + 96;
        const int j = i / 16;
        const int low = j < 8 ? (s[j] & 15) : (s[j - 8] >> 4);
        const int high = (s[8 + j % 4] >> (2 * (j / 4))) & 3;
        return half(b + 108) * ((low | high << 4) - 32) * q;
    }
    case GgmlType::Q4_K:
    case GgmlType::Q5_K: { // d dmin scales[12] (qh[32]) qs[128]
        int sc, m;
        scaleMin(b + 4, i / 32, sc, m);
        const uint8_t* qs = b + (t == GgmlType::Q4_K ? 16 : 48);
        int q = (i / 32) % 2 ? qs[32 * (i / 64) + i % 32] >> 4 : qs[32 * (i / 64) + i % 32] & 15;
        if (t == GgmlType::Q5_K)
            q |= ((b[16 + i % 32] >> (i / 32)) & 1) << 4;
        return half(b) * sc * q - half(b + 2) * m;
    }
    case GgmlType::Q6_K: { // ql[128] qh[64] scales[16] d
        const int h = i / 128, r = i % 128, k = r / 32, l = r % 32;
        const uint8_t lb = b[64 * h + 32 * (k % 2) + l];
        const int low = k < 2 ? lb & 15 : lb >> 4;
        const int high = (b[128 + 32 * h + l] >> (2 * k)) & 3;
        return half(b + 208) * static_cast<int8_t>(b[192 + i / 16]) * ((low | high << 4) - 32);
    }
    case GgmlType::IQ4_XS: { // d scales_h scales_l[4] qs[128]
        const int c = i / 32;
        const int ls = ((b[4 + c / 2] >> (4 * (c % 2))) & 15) | (((b[2] | b[3] << 8) >> (2 * c)) & 3) << 4;
        return half(b) * (ls - 32) * iq4[nibble32(b + 8 + 16 * c, i % 32)];
    }
    default:
        return 0;
    }
}

// Random block bytes with sane scales (F16 scale fields set to small positive values).
std::vector<uint8_t> randomRow(GgmlType t, int n, std::mt19937& rng)
{
    const auto traits = *ggmlTypeTraits(static_cast<uint32_t>(t));
    std::vector<uint8_t> row(size_t(n) / traits.blockValues * traits.blockBytes);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_real_distribution<float> scale(0.001f, 0.05f);
    for (auto& v : row)
        v = static_cast<uint8_t>(byte(rng));
    auto setHalf = [&](uint8_t* p, float f) {
        const uint16_t h = f32ToF16(f);
        std::memcpy(p, &h, 2);
    };
    for (size_t o = 0; o < row.size(); o += traits.blockBytes) {
        uint8_t* b = row.data() + o;
        switch (t) {
        case GgmlType::Q4_1:
        case GgmlType::Q5_1:
            setHalf(b, scale(rng));
            setHalf(b + 2, -scale(rng));
            break;
        case GgmlType::Q5_0:
        case GgmlType::IQ4_NL:
        case GgmlType::Q4_K:
        case GgmlType::Q5_K:
        case GgmlType::IQ4_XS:
            setHalf(b, scale(rng));
            if (t == GgmlType::Q4_K || t == GgmlType::Q5_K)
                setHalf(b + 2, scale(rng));
            break;
        case GgmlType::MXFP4:
            b[0] = static_cast<uint8_t>(120 + byte(rng) % 8);
            break;
        case GgmlType::Q2_K:
            setHalf(b + 80, scale(rng));
            setHalf(b + 82, scale(rng));
            break;
        case GgmlType::Q3_K:
            setHalf(b + 108, scale(rng));
            break;
        case GgmlType::Q6_K:
            setHalf(b + 208, scale(rng));
            break;
        default:
            break;
        }
    }
    return row;
}

const GgmlType kTypes[] = {GgmlType::Q4_1,   GgmlType::Q5_0,   GgmlType::Q5_1, GgmlType::Q2_K,
                           GgmlType::Q3_K,   GgmlType::Q4_K,   GgmlType::Q5_K, GgmlType::Q6_K,
                           GgmlType::IQ4_NL, GgmlType::IQ4_XS, GgmlType::MXFP4};

// The activation as the dot product sees it: quantised for the type, then decoded.
std::vector<float> quantisedActivation(GgmlType t, const std::vector<float>& x)
{
    const int n = int(x.size());
    std::vector<float> out(x.size());
    if (t == GgmlType::Q4_1 || t == GgmlType::Q5_1) {
        std::vector<BlockQ8_1> q(size_t(n / 32));
        kernels::quantizeRowQ8_1(x.data(), q.data(), n);
        for (int i = 0; i < n; ++i)
            out[size_t(i)] = f16ToF32(q[size_t(i / 32)].d) * q[size_t(i / 32)].qs[i % 32];
    } else if (t == GgmlType::Q5_0 || t == GgmlType::IQ4_NL || t == GgmlType::MXFP4) {
        std::vector<BlockQ8_0> q(size_t(n / 32));
        kernels::quantizeRowQ8_0(x.data(), q.data(), n);
        for (int i = 0; i < n; ++i)
            out[size_t(i)] = f16ToF32(q[size_t(i / 32)].d) * q[size_t(i / 32)].qs[i % 32];
    } else {
        std::vector<BlockQ8_K> q(size_t(n / 256));
        kernels::quantizeRowQ8_K(x.data(), q.data(), n);
        for (int i = 0; i < n; ++i)
            out[size_t(i)] = q[size_t(i / 256)].d * q[size_t(i / 256)].qs[i % 256];
    }
    return out;
}

float kernelDot(GgmlType t, const uint8_t* w, const std::vector<float>& x, bool interleaved)
{
    const int n = int(x.size());
    std::vector<BlockQ8_0> q0(size_t(n / 32));
    std::vector<BlockQ8_1> q1(size_t(n / 32));
    std::vector<BlockQ8_K> qk(size_t(n / 256));
    kernels::quantizeRowQ8_0(x.data(), q0.data(), n);
    kernels::quantizeRowQ8_1(x.data(), q1.data(), n);
    kernels::quantizeRowQ8_K(x.data(), qk.data(), n);
    switch (t) {
    case GgmlType::Q4_1:
        return kernels::dotQ4_1(reinterpret_cast<const BlockQ4_1*>(w), q1.data(), n / 32);
    case GgmlType::Q5_0:
        return kernels::dotQ5_0(reinterpret_cast<const BlockQ5_0*>(w), q0.data(), n / 32);
    case GgmlType::Q5_1:
        return kernels::dotQ5_1(reinterpret_cast<const BlockQ5_1*>(w), q1.data(), n / 32);
    case GgmlType::IQ4_NL:
        return kernels::dotIq4Nl(reinterpret_cast<const BlockIq4Nl*>(w), q0.data(), n / 32, interleaved);
    case GgmlType::MXFP4:
        return kernels::dotMxfp4(reinterpret_cast<const BlockMxfp4*>(w), q0.data(), n / 32, interleaved);
    case GgmlType::Q2_K:
        return kernels::dotQ2_K(reinterpret_cast<const BlockQ2_K*>(w), qk.data(), n / 256);
    case GgmlType::Q3_K:
        return kernels::dotQ3_K(reinterpret_cast<const BlockQ3_K*>(w), qk.data(), n / 256);
    case GgmlType::Q4_K:
        return kernels::dotQ4_K(reinterpret_cast<const BlockQ4_K*>(w), qk.data(), n / 256, interleaved);
    case GgmlType::Q5_K:
        return kernels::dotQ5_K(reinterpret_cast<const BlockQ5_K*>(w), qk.data(), n / 256);
    case GgmlType::Q6_K:
        return kernels::dotQ6_K(reinterpret_cast<const BlockQ6_K*>(w), qk.data(), n / 256);
    case GgmlType::IQ4_XS:
        return kernels::dotIq4Xs(reinterpret_cast<const BlockIq4Xs*>(w), qk.data(), n / 256);
    default:
        return 0;
    }
}

// Every reference*.json of the data folder (one per architecture or generator run), their "models" lists joined;
// discarded when none can be read, so a missing or corrupt file fails the test rather than shrinking it.
nlohmann::json references()
{
    const QDir dir(wstest::sourcePath(QStringLiteral("tests/engine/decode/data/ggmltypes")));
    nlohmann::json all = {{"models", nlohmann::json::array()}};
    const auto names = dir.entryList({QStringLiteral("reference*.json")}, QDir::Files, QDir::Name);
    if (names.isEmpty())
        return nlohmann::json(nlohmann::json::value_t::discarded);
    for (const QString& name : names) {
        std::ifstream f(dir.filePath(name).toStdString());
        auto json = nlohmann::json::parse(f, nullptr, false);
        if (json.is_discarded() || !json.contains("models"))
            return nlohmann::json(nlohmann::json::value_t::discarded);
        for (auto& m : json["models"])
            all["models"].push_back(std::move(m));
    }
    return all;
}

} // namespace

class TestGgmlTypes : public QObject
{
    Q_OBJECT
private slots:
    void decodedRowsMatchTheBlockFormat_data()
    {
        QTest::addColumn<GgmlType>("type");
        for (GgmlType t : kTypes)
            QTest::newRow(ggmlTypeName(t)) << t;
    }
    void decodedRowsMatchTheBlockFormat()
    {
        QFETCH(GgmlType, type);
        std::mt19937 rng(7);
        const int n = 1024;
        const auto row = randomRow(type, n, rng);
        std::vector<float> got(static_cast<size_t>(n));
        kernels::dequantizeRow(type, row.data(), got.data(), n);
        const auto traits = *ggmlTypeTraits(static_cast<uint32_t>(type));
        for (int i = 0; i < n; ++i) {
            const uint8_t* block = row.data() + size_t(i) / traits.blockValues * traits.blockBytes;
            const double want = referenceValue(type, block, i % int(traits.blockValues));
            QVERIFY2(std::fabs(got[size_t(i)] - want) <= 1e-6 * std::max(1.0, std::fabs(want)),
                     qPrintable(QStringLiteral("value %1: %2 vs %3").arg(i).arg(got[size_t(i)]).arg(want)));
        }
    }

    void dotProductsMatchTheDecodedValues_data()
    {
        QTest::addColumn<GgmlType>("type");
        QTest::addColumn<bool>("interleaved");
        for (GgmlType t : kTypes) {
            QTest::newRow(ggmlTypeName(t)) << t << false;
            if (t == GgmlType::Q4_K || t == GgmlType::IQ4_NL || t == GgmlType::MXFP4)
                QTest::newRow(qPrintable(QStringLiteral("%1 interleaved").arg(ggmlTypeName(t)))) << t << true;
        }
    }
    void dotProductsMatchTheDecodedValues()
    {
        QFETCH(GgmlType, type);
        QFETCH(bool, interleaved);
        std::mt19937 rng(11);
        const int n = 2048;
        std::normal_distribution<float> normal(0.0f, 1.0f);
        std::vector<float> x(static_cast<size_t>(n));
        for (auto& v : x)
            v = normal(rng);
        const auto row = randomRow(type, n, rng);
        std::vector<float> w(static_cast<size_t>(n));
        kernels::dequantizeRow(type, row.data(), w.data(), n);
        const auto xq = quantisedActivation(type, x);
        double want = 0, magnitude = 0;
        for (int i = 0; i < n; ++i) {
            want += double(w[size_t(i)]) * xq[size_t(i)];
            magnitude += std::fabs(double(w[size_t(i)]) * xq[size_t(i)]);
        }
        const float got = kernelDot(type, row.data(), x, interleaved);
        QVERIFY2(std::fabs(got - want) <= 1e-5 * magnitude,
                 qPrintable(QStringLiteral("%1 vs %2 (sum of |terms| %3)").arg(got).arg(want).arg(magnitude)));
    }

    // Every reference file opens, gives llama.cpp's prompt ids, and llama.cpp's greedy ids up to the
    // first step whose top-1/top-2 margin (in llama.cpp) is below 1e-3, with the top logit of each of
    // those steps within 1e-4 of llama.cpp's.
    void greedyMatchesLlamaCpp_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<std::vector<TokenId>>("promptIds");
        QTest::addColumn<std::vector<TokenId>>("expected");
        QTest::addColumn<std::vector<float>>("margins");
        QTest::addColumn<std::vector<float>>("topLogits");
        const auto json = references();
        if (json.is_discarded()) {
            QTest::newRow("no readable reference*.json")
                << QString() << QString() << std::vector<TokenId>{} << std::vector<TokenId>{} << std::vector<float>{}
                << std::vector<float>{};
            return;
        }
        for (const auto& m : json["models"]) {
            for (const auto& r : m["runs"]) {
                const QString file = QString::fromStdString(m["file"].get<std::string>());
                const QString prompt = QString::fromStdString(r["prompt"].get<std::string>());
                QTest::newRow(qPrintable(file + " | " + prompt))
                    << file << prompt << r["prompt_ids"].get<std::vector<TokenId>>()
                    << r["generated_ids"].get<std::vector<TokenId>>() << r["margins"].get<std::vector<float>>()
                    << r["top_logits"].get<std::vector<float>>();
            }
        }
    }
    void greedyMatchesLlamaCpp()
    {
        QFETCH(QString, file);
        QFETCH(QString, prompt);
        QFETCH(std::vector<TokenId>, promptIds);
        QFETCH(std::vector<TokenId>, expected);
        QFETCH(std::vector<float>, margins);
        QFETCH(std::vector<float>, topLogits);
        QVERIFY2(!file.isEmpty(), "tests/engine/decode/data/ggmltypes has no readable reference*.json");
        const QString path = wstest::sourcePath(QStringLiteral("tests/engine/decode/data/ggmltypes/") + file);
        auto m = DecodeModel::load(path.toStdString());
        QVERIFY2(m, m ? "" : m.error().message().c_str());
        auto tok = Tokenizer::fromGguf(*m->gguf());
        QVERIFY2(tok, tok ? "" : tok.error().message().c_str());
        QCOMPARE(tok->encode(prompt.toStdString(), true, true), promptIds);

        size_t compared = 0;
        while (compared < expected.size() && margins[compared] >= 1e-3f)
            ++compared;
        Generator gen(*m, 512, 1);
        GenerationSettings settings;
        settings.maxTokens = int(std::max<size_t>(compared, 1));
        settings.stopAtEndOfGeneration = false;
        auto result = gen.generate(promptIds, settings);
        QVERIFY2(result, result ? "" : result.error().message().c_str());
        const std::vector<TokenId> got(result->tokens.begin(), result->tokens.begin() + long(compared));
        // The top logit of every compared step against llama.cpp's (printed with 6 significant digits),
        // the forward pass fed llama.cpp's ids.
        double worstLogit = 0;
        {
            ThreadPool pool(1);
            RunState state(m->config(), 512, 512, 1);
            std::vector<TokenId> batch = promptIds;
            int position = 0;
            for (size_t step = 0; step < compared; ++step) {
                QVERIFY(forward(m->config(), m->weights(), state, pool, batch, position));
                position += int(batch.size());
                const float top = *std::max_element(state.logits.begin(), state.logits.end());
                worstLogit = std::max(worstLogit, std::fabs(double(top) - topLogits[step]));
                batch = {expected[step]};
            }
        }
        const std::vector<TokenId> want(expected.begin(), expected.begin() + long(compared));
        qInfo(
            "%s: compared %zu of %zu steps%s; top logit within %.2g of llama.cpp's", qPrintable(file + " | " + prompt),
            compared, expected.size(),
            compared < expected.size()
                ? qPrintable(
                      QStringLiteral(" (llama.cpp margin %1 at step %2)").arg(double(margins[compared])).arg(compared))
                : "",
            worstLogit);
        QCOMPARE(got, want);
        // 1e-4: llama.cpp's value is printed with 6 digits, and GeGLU's F16 table turns a last-bit difference
        // of its input into up to 1.5e-5 here (gemma3); a missing or misplaced step moves it by far more.
        QVERIFY2(worstLogit < 1e-4, qPrintable(QStringLiteral("top logit off by %1").arg(worstLogit)));
    }
};

QTEST_GUILESS_MAIN(TestGgmlTypes)
#include "tst_ggmltypes.moc"
