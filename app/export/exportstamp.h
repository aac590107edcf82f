#pragma once
// ExportStamp is what every exported file records about where it came from:
// the WaferScope version and git revision that made it (BuildInfo::generator())
// and the scenario it shows, as compact JSON (a .waferscope document, or for a
// table without one, the table's inputs). A figure in a slide can then be
// traced to the build and reopened. Exporter writes it into PNG text chunks,
// an SVG comment and CSV/JSON headers; the recorders into video metadata.

#include <QByteArray>
#include <QImage>
#include <QJsonObject>
#include <QString>

namespace ws {

struct ExportStamp
{
    QString generator;   // "WaferScope 0.1.0 (git e9c7084abc)"
    QByteArray scenario; // compact JSON object, or empty when the export shows no scenario

    ExportStamp(); // the running build, no scenario
    // Any JSON object text (a .waferscope file's bytes); stored compact. Not JSON: no scenario.
    static ExportStamp forScenario(const QByteArray& json);
    static ExportStamp forScenario(const QJsonObject& json);

    // PNG text keys.
    static constexpr const char* kPngSoftwareKey = "Software";
    static constexpr const char* kPngScenarioKey = "WaferScope-Scenario";

    // "WaferScope 0.1.0 (git ...); scenario: {...}" (no scenario part when there is none).
    QString text() const;
    void addTo(QImage& image) const; // PNG text chunks: Software, WaferScope-Scenario
    // An XML comment safe for any scenario text ("--" never appears inside it).
    QByteArray svgComment() const;
    // "# generator: ...\r\n# scenario: ...\r\n": comment lines before a CSV header row.
    QByteArray csvComment() const;
};

} // namespace ws
