// Tour files: JSON in, a tour or a one-line error out; an accepted tour's steps give their lengths and captions.
#include "app/present/tourcaptions.h"
#include "app/present/tourformat.h"

#include <QByteArray>
#include <QMap>
#include <QString>

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char*>(data), qsizetype(size));
    QString error;
    const auto tour = ws::TourFormat::fromJson(json, QStringLiteral("fuzz.json"), &error);
    if (!tour) {
        if (error.isEmpty() || error.contains(QLatin1Char('\n')) || !error.startsWith(QLatin1String("fuzz.json: "))) {
            std::fprintf(stderr, "not a one-line refusal naming the file: %s\n", error.toUtf8().constData());
            std::abort(); // every refusal is one line naming the file
        }
        return 0;
    }
    const QMap<QString, QString> values{{QStringLiteral("model"), QStringLiteral("M")}};
    for (const ws::TourStep& step : tour->steps) {
        if (!(ws::TourFormat::stepSeconds(step, 0.002) >= 0))
            std::abort();
        if (step.kind == ws::TourStepKind::Caption)
            (void)ws::TourCaptions::display(step.text, values);
    }
    return 0;
}
