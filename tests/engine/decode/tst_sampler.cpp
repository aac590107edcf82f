#include "engine/decode/sampler.h"

#include <QTest>

#include <map>

using ws::Sampler;
using ws::SamplerSettings;
using ws::TokenId;

class TestSampler : public QObject
{
    Q_OBJECT
private slots:
    void greedyTakesFirstMaximum()
    {
        std::vector<float> logits{0.1f, 3.0f, -1.0f, 3.0f};
        Sampler s(SamplerSettings{}, 4);
        QCOMPARE(s.sample(logits, {}), TokenId(1));
    }

    void seedReproducesDraws()
    {
        SamplerSettings st;
        st.temperature = 1.0f;
        st.seed = 123;
        std::vector<float> base(100);
        for (int i = 0; i < 100; ++i)
            base[size_t(i)] = float(i % 7) * 0.3f;
        auto draw = [&](uint64_t seed) {
            st.seed = seed;
            Sampler s(st, 100);
            std::vector<TokenId> out;
            for (int i = 0; i < 50; ++i) {
                auto l = base;
                out.push_back(s.sample(l, {}));
            }
            return out;
        };
        QCOMPARE(draw(123), draw(123));
        QVERIFY(draw(123) != draw(124));
    }

    void distributionFollowsSoftmax()
    {
        SamplerSettings st;
        st.temperature = 1.0f;
        st.seed = 5;
        Sampler s(st, 3);
        std::map<TokenId, int> counts;
        const int draws = 20000;
        for (int i = 0; i < draws; ++i) {
            std::vector<float> l{0.0f, std::log(3.0f), -100.0f};
            ++counts[s.sample(l, {})];
        }
        // p = 1/4, 3/4, ~0
        QVERIFY(std::abs(counts[1] / double(draws) - 0.75) < 0.02);
        QCOMPARE(counts[2], 0);
    }

    void filtersNarrowTheChoice_data()
    {
        QTest::addColumn<int>("topK");
        QTest::addColumn<float>("topP");
        QTest::addColumn<float>("minP");
        QTest::addColumn<QList<int>>("allowed");
        QTest::newRow("top-k 1 is greedy") << 1 << 1.0f << 0.0f << QList<int>{2};
        QTest::newRow("top-k 2") << 2 << 1.0f << 0.0f << QList<int>{2, 0};
        QTest::newRow("top-p small keeps the best") << 0 << 0.01f << 0.0f << QList<int>{2};
        QTest::newRow("top-p covers two") << 0 << 0.8f << 0.0f << QList<int>{2, 0};
        QTest::newRow("min-p 0.4") << 0 << 1.0f << 0.4f << QList<int>{2, 0};
        QTest::newRow("min-p 1 is greedy") << 0 << 1.0f << 1.0f << QList<int>{2};
    }
    void filtersNarrowTheChoice()
    {
        QFETCH(int, topK);
        QFETCH(float, topP);
        QFETCH(float, minP);
        QFETCH(QList<int>, allowed);
        SamplerSettings st;
        st.temperature = 5.0f; // flat after filtering, so every kept token shows up
        st.topK = topK;
        st.topP = topP;
        st.minP = minP;
        st.seed = 9;
        Sampler s(st, 4);
        QSet<int> seen;
        for (int i = 0; i < 2000; ++i) {
            // probabilities about 0.31, 0.04, 0.62, 0.03
            std::vector<float> l{std::log(0.31f), std::log(0.04f), std::log(0.62f), std::log(0.03f)};
            seen.insert(s.sample(l, {}));
        }
        QCOMPARE(seen, QSet<int>(allowed.begin(), allowed.end()));
    }

    void repetitionPenaltyDiscouragesRecentTokens()
    {
        SamplerSettings st;
        st.repetitionPenalty = 2.0f;
        Sampler s(st, 3);
        std::vector<float> l{1.0f, 1.5f, -1.0f};
        const std::vector<TokenId> history{1, 1};
        QCOMPARE(s.sample(l, history), TokenId(0)); // 1.5 / 2 = 0.75 < 1.0
        QCOMPARE(l[1], 0.75f);                      // penalised once, not per occurrence
        std::vector<float> neg{-1.0f, -0.6f, -3.0f};
        const std::vector<TokenId> h2{0};
        QCOMPARE(s.sample(neg, h2), TokenId(1)); // negative logits are multiplied: -2.0 < -0.6
    }

    void validateRejectsNonsense()
    {
        SamplerSettings st;
        QVERIFY(st.validate());
        st.temperature = -1.0f;
        QVERIFY(!st.validate());
        st.temperature = NAN;
        QVERIFY(!st.validate());
        st = {};
        st.topP = 1.5f;
        QVERIFY(!st.validate());
        st = {};
        st.topK = -2;
        QVERIFY(!st.validate());
        st = {};
        st.repetitionPenalty = 0.0f;
        QVERIFY(!st.validate());
    }
};

QTEST_GUILESS_MAIN(TestSampler)
#include "tst_sampler.moc"
