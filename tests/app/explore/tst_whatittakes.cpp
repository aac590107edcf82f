// Explore > What Would It Take… in the window: for the scenario on stage and a target, the dialog shows the answer
// `waferscope-cli predict --target-tokens-per-second N --json` gives for the same model, hardware, precision and
// context (the seed article's claim of Qwen3-32B at 1,500 tokens/s on the wafer, and a published figure picked
// from the dialog's list), row by row, with the same verdict; the table shows the rows its Export writes.
#include "app/common/presetlibrary.h"
#include "app/explore/layoutexplorer.h"
#include "app/explore/whatittakesdialog.h"
#include "app/scenario/scenario.h"

#include "tests/common/clirunner.h"
#include "views/charts/chartformat.h"

#include <QAction>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace ws;

class TestWhatItTakes : public QObject
{
    Q_OBJECT

    static Scenario qwen32()
    {
        Scenario s;
        s.modelPreset = QStringLiteral("qwen3-32b");
        s.hardwarePreset = QStringLiteral("wse3");
        s.precision = Precision::Bf16;
        s.contextTokens = 8192;
        return s;
    }

    // The dialog's answer against the CLI's for the same inputs and target.
    static void compareWithCli(const WhatItTakesDialog& dialog, double target, const QString& model = "qwen3-32b",
                               const QString& precision = "bf16")
    {
        const auto run =
            wstest::runCli({"predict", "--model", model, "--hardware", "wse3", "--precision", precision, "--context",
                            "8192", "--target-tokens-per-second", QString::number(target), "--json"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject cli = QJsonDocument::fromJson(run.out).object();
        QVERIFY(dialog.answer());
        const TargetAnswer& a = *dialog.answer();
        QCOMPARE(a.target, target);
        QCOMPARE(a.reachable, cli.value("reachable").toBool());
        QCOMPARE(QString::fromStdString(a.verdict), cli.value("verdict").toString());
        QCOMPARE(dialog.verdictLabel()->text(), cli.value("verdict").toString());
        const QJsonArray tried = cli.value("tried").toArray();
        QCOMPARE(qsizetype(a.tried.size()), tried.size());
        QCOMPARE(dialog.table()->rowCount(), tried.size());
        for (int i = 0; i < tried.size(); ++i) {
            const QJsonObject row = tried[i].toObject();
            const double tps = row.value("tokens_per_second_per_user").toDouble();
            QVERIFY2(std::abs(a.tried[size_t(i)].tokensPerSecond / tps - 1) < 1e-9, qPrintable(QString::number(i)));
            QCOMPARE(a.tried[size_t(i)].devices, row.value("devices").toInt());
            QCOMPARE(QString::fromStdString(a.tried[size_t(i)].experts), row.value("experts").toString());
            QCOMPARE(dialog.table()->item(i, 8)->text(), row.value("reaches").toBool() ? "yes" : "no");
        }
        if (a.least)
            QCOMPARE(int(*a.least), cli.value("least").toInt());
        else
            QVERIFY(!cli.contains("least"));
        showsTheRowsItExports(dialog);
    }

    // Every shown cell against the exported value(s) of its row: what Export writes is what the table shows.
    static void showsTheRowsItExports(const WhatItTakesDialog& dialog)
    {
        const DataTable data = dialog.tableData();
        QCOMPARE(data.name, QStringLiteral("what_it_takes"));
        QCOMPARE(data.columns, QStringList({"kernel", "kernel_factor", "experts", "speculative", "draft_tokens",
                                            "acceptance", "devices", "tokens_per_second_per_user",
                                            "ceiling_tokens_per_second", "ceiling_bound", "reaches"}));
        const QTableWidget* t = dialog.table();
        QCOMPARE(t->columnCount(), 9);
        QVERIFY(!data.rows.isEmpty());
        QCOMPARE(t->rowCount(), int(data.rows.size()));
        const QString none = QStringLiteral("–");
        for (int r = 0; r < t->rowCount(); ++r) {
            const QVariantList& v = data.rows[r];
            QCOMPARE(v.size(), data.columns.size());
            auto text = [&](int c) { return t->item(r, c)->text(); };
            QCOMPARE(text(0), v[0].toString().isEmpty() ? none : v[0].toString());
            QCOMPARE(text(1), QString::number(v[1].toDouble(), 'f', 3));
            QCOMPARE(text(2), v[2].toString().isEmpty() ? none : v[2].toString());
            const bool speculative = v[3].toBool();
            QCOMPARE(text(3), speculative ? QString::number(v[4].toInt()) : none);
            QCOMPARE(text(4), speculative ? QString::number(v[5].toDouble(), 'f', 2) : none);
            QCOMPARE(v[4].isValid(), speculative); // no draft without speculation: written empty
            QCOMPARE(text(5), QString::number(v[6].toInt()));
            QCOMPARE(text(6), ws::views::formatSignificant(v[7].toDouble()));
            QCOMPARE(text(7),
                     QStringLiteral("%1 (%2)").arg(ws::views::formatSignificant(v[8].toDouble()), v[9].toString()));
            QCOMPARE(text(8), v[10].toBool() ? QStringLiteral("yes") : QStringLiteral("no"));
            // The least change that reaches the target is marked, and only that row.
            const bool least = dialog.answer()->least && int(*dialog.answer()->least) == r;
            QCOMPARE(t->item(r, 0)->data(Qt::BackgroundRole).isValid(), least);
        }
    }

private slots:
    void answersAsTheCliDoes()
    {
        const PresetLibrary presets{QString()};
        QMainWindow window;
        LayoutExplorer explorer(&window, presets, [] { return qwen32(); });
        QAction* action = explorer.menu()->findChild<QAction*>(QStringLiteral("whatItTakesAction"));
        QVERIFY(action && !action->text().isEmpty());
        action->trigger();
        WhatItTakesDialog* dialog = explorer.whatItTakesDialog();
        QVERIFY(dialog && dialog->isVisible());
        QSignalSpy answered(dialog, &WhatItTakesDialog::answered);

        // The seed article's claim: a Qwen3 32B-class model at 1,500 tokens/s.
        dialog->setTarget(1500);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->answer() && dialog->answer()->target == 1500, 60000);
        compareWithCli(*dialog, 1500);

        // A published figure from the list: Cerebras' Qwen3 32B model page, 2,600 tokens/s (a shipped row).
        QComboBox* figures = dialog->figureBox();
        int page = -1;
        for (int i = 0; i < figures->count(); ++i)
            if (figures->itemText(i).contains(QStringLiteral("Qwen3 32B (model page)")))
                page = i;
        QVERIFY(page > 0);
        QCOMPARE(figures->itemData(page).toDouble(), 2600.0);
        QVERIFY(figures->itemData(page, Qt::ToolTipRole).toString().contains(QStringLiteral("inference-docs")));
        figures->setCurrentIndex(page);
        emit figures->activated(page);
        QCOMPARE(dialog->target(), 2600.0);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->answer() && dialog->answer()->target == 2600, 60000);
        compareWithCli(*dialog, 2600);
    }

    // A mixture-of-experts model on wafers: where its experts sit is one of the levers. gpt-oss-120b at Cerebras'
    // published 3,000 tokens/s (reference-vendors.json), the scenario's blocks first, then sliced.
    void expertLayoutIsALever()
    {
        const PresetLibrary presets{QString()};
        WhatItTakesDialog dialog(presets);
        Scenario s = qwen32();
        s.modelPreset = QStringLiteral("gpt-oss-120b");
        s.precision = Precision::Fp4;
        QString error;
        QVERIFY2(dialog.setScenario(s, &error), qPrintable(error));
        dialog.setTarget(3000);
        QTRY_VERIFY_WITH_TIMEOUT(dialog.answer() && dialog.answer()->target == 3000, 60000);
        compareWithCli(dialog, 3000, "gpt-oss-120b", "fp4");
        const TargetAnswer& a = *dialog.answer();
        QCOMPARE(a.tried.front().experts, std::string("blocks"));
        bool sliced = false;
        for (const TargetOption& t : a.tried)
            sliced = sliced || t.experts == "sliced";
        QVERIFY(sliced);
    }

    void unknownModelIsRefused()
    {
        const PresetLibrary presets{QString()};
        WhatItTakesDialog dialog(presets);
        Scenario s = qwen32();
        s.modelPreset = QStringLiteral("no-such-model");
        QString error;
        QVERIFY(!dialog.setScenario(s, &error));
        QVERIFY(error.contains(QStringLiteral("no-such-model")));
    }
};

QTEST_MAIN(TestWhatItTakes)
#include "tst_whatittakes.moc"
