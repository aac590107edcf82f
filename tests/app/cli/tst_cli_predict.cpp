// waferscope-cli predict, run as a real process: the JSON contract of
// DESIGN.md for every hardware preset, the device count chosen or checked,
// and exit 2 with one line on stderr for bad input.
#include "tests/common/clirunner.h"
#include "tests/common/testmodels.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace {
using Run = wstest::CliRun;

Run runCli(const QStringList& args)
{
    return wstest::runCli(args);
}

QJsonObject predictJson(const QStringList& args, Run* run = nullptr)
{
    const Run r = runCli(QStringList{"predict"} + args + QStringList{"--json"});
    if (run)
        *run = r;
    return QJsonDocument::fromJson(r.out).object();
}
} // namespace

class TestCliPredict : public QObject
{
    Q_OBJECT
private slots:
    void contract_data()
    {
        QTest::addColumn<QString>("hardware");
        for (const char* h : {"wse2", "wse3", "a100", "h100", "h200", "b200", "groq-lpu"})
            QTest::newRow(h) << QString::fromLatin1(h);
    }
    void contract()
    {
        QFETCH(QString, hardware);
        Run r;
        const QJsonObject o = predictJson({"--model", "llama-3.1-70b", "--hardware", hardware}, &r);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        for (const char* key : {"tokens_per_second_per_user", "tokens_per_second_per_user_range", "ttft_ms",
                                "aggregate_tokens_per_second", "devices", "profile", "breakdown"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        const double tps = o.value("tokens_per_second_per_user").toDouble();
        const QJsonArray range = o.value("tokens_per_second_per_user_range").toArray();
        QCOMPARE(range.size(), 2);
        QVERIFY(tps > 0 && range[0].toDouble() <= tps && tps <= range[1].toDouble());
        // The range's drivers: input, low, high, effect (and a source); the ceiling above the point.
        const QJsonArray drivers = o.value("range_drivers").toArray();
        QVERIFY(!drivers.isEmpty());
        for (const auto& v : drivers) {
            const QJsonObject d = v.toObject();
            for (const char* key : {"input", "low", "high", "effect", "source"})
                QVERIFY2(d.contains(QLatin1String(key)), key);
            QVERIFY(d.value("low").toDouble() <= d.value("high").toDouble() && d.value("effect").toDouble() >= 1);
        }
        const QJsonObject ceiling = o.value("ceiling").toObject();
        QVERIFY(range[1].toDouble() <= ceiling.value("tokens_per_second_per_user").toDouble());
        QVERIFY(!ceiling.value("bound").toString().isEmpty());
        // Dollars per million output tokens = hourly cost of the devices / tokens per hour, with its source.
        const double perMillion = o.value("usd_per_million_tokens").toDouble();
        const double hourly = o.value("hourly_cost_usd").toDouble();
        QVERIFY(perMillion > 0 && hourly > 0);
        QVERIFY(std::abs(perMillion / (hourly / (o.value("aggregate_tokens_per_second").toDouble() * 3600) * 1e6) - 1) <
                1e-9);
        const QJsonArray costRange = o.value("usd_per_million_tokens_range").toArray();
        QVERIFY(costRange.size() == 2 && costRange[0].toDouble() <= perMillion &&
                perMillion <= costRange[1].toDouble());
        QVERIFY(!o.value("hourly_cost_source").toString().isEmpty());
        QVERIFY(o.value("devices").toInt() >= 1);
        QCOMPARE(o.value("devices_chosen").toString(), QStringLiteral("automatic"));
        // The breakdown (ms per token) adds up to the token time.
        double sum = 0;
        for (const auto& v : o.value("breakdown").toObject())
            sum += v.toDouble();
        QVERIFY(std::abs(sum - 1000.0 / tps) < 1e-6 * sum);
        bool said = false;
        for (const auto& n : o.value("notes").toArray())
            said |= n.toString().contains(QLatin1String("fewest"));
        QVERIFY2(said, "without --devices the output says it chose the fewest devices");
    }

    // --speculative: on with the sourced defaults and the default draft; predict --json says what it ran with,
    // where the defaults come from and what it gained or lost against the same prediction without it.
    void speculativeWithSourcedDefaults()
    {
        Run r;
        const QJsonObject plain = predictJson({"--model", "qwen3-32b", "--hardware", "h100", "--devices", "8"}, &r);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(plain.value("speculative").toObject().value("enabled").toBool(), false);
        const QJsonObject o =
            predictJson({"--model", "qwen3-32b", "--hardware", "h100", "--devices", "8", "--speculative"}, &r);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject s = o.value("speculative").toObject();
        QCOMPARE(s.value("enabled").toBool(), true);
        QCOMPARE(s.value("draft_model").toString(), QStringLiteral("qwen3-0.6b"));
        QCOMPARE(s.value("tokens_per_step").toInt(), 4);
        QCOMPARE(s.value("acceptance_rate").toDouble(), 0.7);
        QVERIFY(s.value("sources").toObject().value("tokens_per_step").toString().contains("arXiv"));
        QVERIFY(s.value("sources").toObject().value("acceptance_rate").toString().contains("arXiv"));
        QCOMPARE(s.value("plain_tokens_per_second_per_user").toDouble(),
                 plain.value("tokens_per_second_per_user").toDouble());
        const double speedup = s.value("speedup").toDouble();
        QVERIFY(std::abs(speedup - o.value("tokens_per_second_per_user").toDouble() /
                                       plain.value("tokens_per_second_per_user").toDouble()) < 1e-9);
        const double e = s.value("expected_tokens_per_step").toDouble();
        QVERIFY(std::abs(speedup - e / (s.value("draft_target_tokens").toDouble() +
                                        s.value("verify_target_tokens").toDouble())) < 1e-9);
        // The vendor-known case: Groq is said to run it, with its source.
        const QJsonObject g = predictJson(
            {"--model", "llama-3.1-70b", "--hardware", "groq-lpu", "--speculative", "--acceptance", "0.8"}, &r);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(g.value("speculative").toObject().value("vendor_uses").toBool(), true);
        QCOMPARE(g.value("speculative").toObject().value("acceptance_rate").toDouble(), 0.8);
        QVERIFY(!g.value("speculative").toObject().contains("draft_cores")); // only a wafer places the draft
        // On the wafer the draft's own cores: a share of one wafer's usable cores, and its k tokens per step. On
        // the launch stack (WaferLLM's kernels, resources/measurements/stacks.json): with the October 2024 stack's
        // faster kernels an 8B draft crosses 32 layers for little less than the target's token and does not pay.
        const QJsonObject w =
            predictJson({"--model", "qwen3-32b", "--hardware", "wse3", "--speculative", "--as-of", "2024-09"}, &r);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject ws = w.value("speculative").toObject();
        const double draftCores = ws.value("draft_cores").toDouble();
        QVERIFY(draftCores > 0 && draftCores < ws.value("usable_cores_per_device").toDouble());
        QVERIFY(ws.value("draft_seconds_per_step").toDouble() > 0);
        // Qwen3-32B keeps its 2 wafers with the draft on a strip beside it; Llama-3.1-70B gets its 8B draft a
        // wafer of its own after its 4 (the strip would push the target onto more wafers than the one it adds).
        const QJsonObject wPlain =
            predictJson({"--model", "qwen3-32b", "--hardware", "wse3", "--as-of", "2024-09"}, &r);
        QCOMPARE(ws.value("draft_home").toString(), QStringLiteral("strip"));
        QCOMPARE(ws.value("devices").toInt(), wPlain.value("devices").toInt());
        QCOMPARE(w.value("devices").toInt(), wPlain.value("devices").toInt());
        const QJsonObject big =
            predictJson({"--model", "llama-3.1-70b", "--hardware", "wse3", "--speculative", "--as-of", "2024-09"}, &r);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject bigPlain =
            predictJson({"--model", "llama-3.1-70b", "--hardware", "wse3", "--as-of", "2024-09"}, &r);
        const QJsonObject bs = big.value("speculative").toObject();
        QCOMPARE(bs.value("draft_home").toString(), QStringLiteral("own_wafer"));
        QCOMPARE(bs.value("devices").toInt(), bigPlain.value("devices").toInt() + 1);
        QCOMPARE(big.value("devices").toInt(), bs.value("devices").toInt());
        QCOMPARE(bs.value("draft_cores").toDouble(), bs.value("usable_cores_per_device").toDouble());
        QVERIFY(bs.value("draft_columns").toInt() > 0);
        QVERIFY(bs.value("speedup").toDouble() > 1);
    }

    void seventyBOnFourWafers()
    {
        // Facts §6.7: 70B in BF16 needs at least 4 WSE-3 wafers.
        const QJsonObject o = predictJson({"--model", "llama-3.1-70b", "--hardware", "wse3", "--precision", "bf16"});
        QCOMPARE(o.value("devices").toInt(), 4);
    }

    void tooFewDevicesSaysHowMany_data()
    {
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<QString>("devices");
        QTest::newRow("wse3") << "wse3"
                              << "2";
        QTest::newRow("h100") << "h100"
                              << "1";
        QTest::newRow("groq") << "groq-lpu"
                              << "10";
    }
    void tooFewDevicesSaysHowMany()
    {
        QFETCH(QString, hardware);
        QFETCH(QString, devices);
        const Run r =
            runCli({"predict", "--model", "llama-3.1-70b", "--hardware", hardware, "--devices", devices, "--json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains("needs"), r.err.constData());
    }

    void moreDevicesAreUsedOnGpus()
    {
        const QJsonObject two = predictJson({"--model", "llama-3.1-70b", "--hardware", "h100", "--devices", "2"});
        const QJsonObject eight = predictJson({"--model", "llama-3.1-70b", "--hardware", "h100", "--devices", "8"});
        QCOMPARE(eight.value("devices").toInt(), 8);
        QCOMPARE(eight.value("devices_chosen").toString(), QStringLiteral("given"));
        QVERIFY(eight.value("tokens_per_second_per_user").toDouble() >
                two.value("tokens_per_second_per_user").toDouble());
    }

    void batchRaisesAggregate()
    {
        const QJsonObject one = predictJson({"--model", "llama-3.1-8b", "--hardware", "h200", "--batch", "1"});
        const QJsonObject many = predictJson({"--model", "llama-3.1-8b", "--hardware", "h200", "--batch", "64"});
        QVERIFY(many.value("aggregate_tokens_per_second").toDouble() >
                10 * one.value("aggregate_tokens_per_second").toDouble());
        QVERIFY(many.value("tokens_per_second_per_user").toDouble() <=
                one.value("tokens_per_second_per_user").toDouble());
    }

    void defectsCostTime()
    {
        const QJsonObject clean = predictJson({"--model", "llama-3.1-8b", "--hardware", "wse3"});
        Run r;
        const QJsonObject bad =
            predictJson({"--model", "llama-3.1-8b", "--hardware", "wse3", "--defect-rate", "0.002", "--seed", "7"}, &r);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject d = bad.value("defects").toObject();
        QVERIFY(d.value("dead_cores").toDouble() > 0);
        QVERIFY(d.value("hop_stretch").toDouble() >= 1.0);
        QVERIFY(bad.value("tokens_per_second_per_user").toDouble() <=
                clean.value("tokens_per_second_per_user").toDouble());
        // Same seed, same answer.
        const QJsonObject again =
            predictJson({"--model", "llama-3.1-8b", "--hardware", "wse3", "--defect-rate", "0.002", "--seed", "7"});
        QCOMPARE(again.value("tokens_per_second_per_user").toDouble(),
                 bad.value("tokens_per_second_per_user").toDouble());
    }

    // predict counts dead cores as place does: every wafer its own seeded map (seed +
    // wafer index), the same wafers, remap totals, usable mesh and hop stretch.
    void defectsMatchPlace_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("minDevices");
        QTest::newRow("llama-3.1-70b-wse3-five-wafers")
            << QStringList{"--model", "llama-3.1-70b", "--hardware", "wse3",      "--defect-rate",
                           "0.002",   "--seed",        "1",          "--context", "4096"}
            << 2;
        QTest::newRow("llama-3.1-8b-wse3-one-wafer")
            << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3",      "--defect-rate",
                           "0.002",   "--seed",       "7",          "--context", "8192"}
            << 1;
        QTest::newRow("llama-3.1-405b-wse2-int8")
            << QStringList{"--model",       "llama-3.1-405b", "--hardware", "wse2", "--precision", "int8",
                           "--defect-rate", "0.001",          "--seed",     "42",   "--context",   "2048"}
            << 2;
        QTest::newRow("qwen3-30b-a3b-moe-wse3")
            << QStringList{"--model", "qwen3-30b-a3b", "--hardware", "wse3",      "--defect-rate",
                           "0.005",   "--seed",        "3",          "--context", "4096"}
            << 1;
    }
    void defectsMatchPlace()
    {
        QFETCH(QStringList, args);
        QFETCH(int, minDevices);
        const Run placeRun = runCli(QStringList{"place"} + args + QStringList{"--json"});
        QCOMPARE(placeRun.exitCode, 0);
        const QJsonObject place = QJsonDocument::fromJson(placeRun.out).object();
        Run predictRun;
        const QJsonObject predicted = predictJson(args, &predictRun);
        QVERIFY2(predictRun.exitCode == 0, predictRun.err.constData());
        QVERIFY(place.value("devices").toInt() >= minDevices);
        QCOMPARE(predicted.value("devices").toInt(), place.value("devices").toInt());
        const QJsonObject a = place.value("defects").toObject();
        const QJsonObject b = predicted.value("defects").toObject();
        QVERIFY(a.value("dead_cores").toDouble() > 0);
        for (const char* key : {"dead_cores", "spares_used", "unrepairable_segments", "usable_cores", "hop_stretch",
                                "defect_rate", "seed"}) {
            QVERIFY2(b.contains(QLatin1String(key)), key);
            QVERIFY2(a.value(QLatin1String(key)).toDouble() == b.value(QLatin1String(key)).toDouble(), key);
        }
        QCOMPARE(predicted.value("usable_mesh").toArray(), place.value("usable_mesh").toArray());
    }

    void profilesShowTheirFits()
    {
        const QJsonObject o = QJsonDocument::fromJson(runCli({"predict", "--profiles"}).out).object();
        const QJsonArray profiles = o.value("profiles").toArray();
        QVERIFY(profiles.size() >= 5);
        for (const auto& v : profiles) {
            const QJsonObject p = v.toObject();
            QVERIFY(!p.value("source").toString().isEmpty());
            QVERIFY(!p.value("rows").toArray().isEmpty());
            QVERIFY(p.value("max_abs_relative_residual").toDouble() < 0.15);
        }
    }

    void fitsAUserFile()
    {
        // The shipped WaferLLM file, fitted as a user would fit their own.
        const Run r =
            runCli({"predict", "--fit", wstest::sourcePath("resources/measurements/waferllm-wse2-decode.json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject p = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(p.value("id").toString(), QStringLiteral("waferllm-wse2-decode"));
        QCOMPARE(p.value("rows").toArray().size(), 6);
        const Run missing = runCli({"predict", "--fit", "/nonexistent/measurements.json"});
        QCOMPARE(missing.exitCode, 2);
        QCOMPARE(missing.err.count('\n'), 1);
    }

    // --experts: a MoE model's experts each on its own block (the default) or cut across the layer's cores. Sliced,
    // every core works for the active experts, so the FFN takes less time; the note names the layout used.
    void expertLayoutIsAChoice()
    {
        Run blocksRun, slicedRun;
        const QJsonObject blocks = predictJson({"--model", "gpt-oss-20b", "--hardware", "wse3"}, &blocksRun);
        const QJsonObject sliced =
            predictJson({"--model", "gpt-oss-20b", "--hardware", "wse3", "--experts", "sliced"}, &slicedRun);
        QCOMPARE(blocksRun.exitCode, 0);
        QCOMPARE(slicedRun.exitCode, 0);
        auto note = [](const QJsonObject& o, const char* start) {
            for (const QJsonValue& n : o.value(QStringLiteral("notes")).toArray())
                if (n.toString().startsWith(QLatin1String(start)))
                    return true;
            return false;
        };
        QVERIFY(note(blocks, "experts: blocks"));
        QVERIFY(note(sliced, "experts: sliced"));
        const double b = blocks.value(QStringLiteral("tokens_per_second_per_user")).toDouble();
        const double s = sliced.value(QStringLiteral("tokens_per_second_per_user")).toDouble();
        QVERIFY2(b > 0 && s > 1.2 * b, qPrintable(QStringLiteral("blocks %1, sliced %2").arg(b).arg(s)));
        // A dense model has no experts to lay out: the choice changes nothing.
        const QJsonObject dense = predictJson({"--model", "llama-3.1-8b", "--hardware", "wse3"});
        const QJsonObject denseSliced =
            predictJson({"--model", "llama-3.1-8b", "--hardware", "wse3", "--experts", "sliced"});
        QCOMPARE(denseSliced.value(QStringLiteral("tokens_per_second_per_user")).toDouble(),
                 dense.value(QStringLiteral("tokens_per_second_per_user")).toDouble());
        QVERIFY(!note(dense, "experts:"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no-model") << QStringList{"--hardware", "wse3"};
        QTest::newRow("no-hardware") << QStringList{"--model", "llama-3.1-8b"};
        QTest::newRow("unknown-hardware") << QStringList{"--model", "llama-3.1-8b", "--hardware", "tpu9"};
        QTest::newRow("unknown-model") << QStringList{"--model", "no-such-model", "--hardware", "wse3"};
        QTest::newRow("zero-batch") << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3", "--batch", "0"};
        QTest::newRow("text-context") << QStringList{"--model", "llama-3.1-8b", "--hardware",
                                                     "wse3",    "--context",    "lots"};
        QTest::newRow("bad-precision") << QStringList{"--model", "llama-3.1-8b", "--hardware",
                                                      "h100",    "--precision",  "fp12"};
        QTest::newRow("defect-rate-above-one")
            << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3", "--defect-rate", "2"};
        QTest::newRow("negative-devices")
            << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3", "--devices", "-1"};
        QTest::newRow("unknown-expert-layout")
            << QStringList{"--model", "gpt-oss-20b", "--hardware", "wse3", "--experts", "scattered"};
        QTest::newRow("acceptance-without-k")
            << QStringList{"--model", "llama-3.1-8b", "--hardware", "wse3", "--acceptance", "0.5"};
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        const Run r = runCli(QStringList{"predict"} + args + QStringList{"--json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliPredict)
#include "tst_cli_predict.moc"
