#include "app/present/tourcaptions.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace ws {

namespace {
// Every title and caption of resources/tours/*.json, for lupdate (tst_tour checks the list is complete).
constexpr const char* kSourceTexts[] = {
    // token-trip.json: "A token's trip across the wafer"
    QT_TRANSLATE_NOOP("Tour", "A token's trip across the wafer"),
    QT_TRANSLATE_NOOP("Tour", "{model} in {precision} on {devices} × {hardware}: each colour is one layer's weights, "
                              "held in the SRAM of the cores that compute with them."),
    QT_TRANSLATE_NOOP("Tour", "One token's trip: every layer in turn multiplies its weights where they sit, then hands "
                              "a small vector to the next layer's cores."),
    QT_TRANSLATE_NOOP("Tour", "Up close, layer 0 executed core by core by the mesh engine: orange cores multiply and "
                              "add, blue ones pass partial sums on from core to core; the trails show where the data "
                              "just travelled."),
    QT_TRANSLATE_NOOP("Tour", "The same layer's traffic, counted by the engine: each core coloured by the words that "
                              "left its router for this token. Nearly every core forwards partial sums for its "
                              "neighbours."),
    QT_TRANSLATE_NOOP("Tour", "One token takes {token_time} on the wafer: {tokens_per_second} tokens per second for "
                              "one user, with no weight leaving the cores' SRAM."),
    // wafer-gpu-groq.json: "Wafer, GPU and Groq on the same answer"
    QT_TRANSLATE_NOOP("Tour", "Wafer, GPU and Groq on the same answer"),
    QT_TRANSLATE_NOOP("Tour", "{model} on {devices} × {hardware}. Decoding one token reads every weight once, so "
                              "memory bandwidth sets the pace."),
    QT_TRANSLATE_NOOP("Tour", "The same model on the wafer, on GPUs and on Groq: tokens per second per user, time to "
                              "first token and energy per token, each with its range."),
    QT_TRANSLATE_NOOP(
        "Tour",
        "The same answer, revealed at each system's predicted pace. The marker shows where a human reader would be."),
    QT_TRANSLATE_NOOP("Tour", "Fastest here: {fastest} at {fastest_tokens_per_second} tokens/s per user; slowest: "
                              "{slowest} at {slowest_tokens_per_second}."),
    // defects-redundancy.json: "Defects and redundancy"
    QT_TRANSLATE_NOOP("Tour", "Defects and redundancy"),
    QT_TRANSLATE_NOOP(
        "Tour",
        "No wafer comes out of the fab perfect: some cores are dead. Spare cores are built in to take their place."),
    QT_TRANSLATE_NOOP("Tour",
                      "{dead_cores} dead cores: the logical mesh shifts past them onto {spares_used} spare cores."),
    QT_TRANSLATE_NOOP("Tour", "Up close: dead cores in red, logical cores shifted past them in blue."),
    QT_TRANSLATE_NOOP("Tour", "Time per token: {token_time_before} on {devices_before} wafers with no dead core, "
                              "{token_time_after} on {devices_after} wafers after the remap."),
    QT_TRANSLATE_NOOP("Tour", "The token still flows across the repaired mesh."),
};
} // namespace

const QStringList& TourCaptions::placeholders()
{
    static const QStringList names{QStringLiteral("model"),
                                   QStringLiteral("precision"),
                                   QStringLiteral("hardware"),
                                   QStringLiteral("devices"),
                                   QStringLiteral("token_time"),
                                   QStringLiteral("tokens_per_second"),
                                   QStringLiteral("dead_cores"),
                                   QStringLiteral("spares_used"),
                                   QStringLiteral("token_time_before"),
                                   QStringLiteral("devices_before"),
                                   QStringLiteral("devices_after"),
                                   QStringLiteral("token_time_after"),
                                   QStringLiteral("fastest"),
                                   QStringLiteral("fastest_tokens_per_second"),
                                   QStringLiteral("slowest"),
                                   QStringLiteral("slowest_tokens_per_second")};
    return names;
}

QStringList TourCaptions::sourceTexts()
{
    QStringList texts;
    for (const char* text : kSourceTexts)
        texts << QString::fromUtf8(text);
    return texts;
}

QString TourCaptions::display(const QString& text, const QMap<QString, QString>& values)
{
    QString shown = QCoreApplication::translate("Tour", text.toUtf8().constData());
    static const QRegularExpression placeholder(QStringLiteral("\\{([a-z_]+)\\}"));
    QString out;
    qsizetype last = 0;
    for (auto it = placeholder.globalMatch(shown); it.hasNext();) {
        const auto match = it.next();
        out += shown.mid(last, match.capturedStart() - last);
        out += values.value(match.captured(1), QStringLiteral("–"));
        last = match.capturedEnd();
    }
    return out + shown.mid(last);
}

} // namespace ws
