#pragma once
// BuildInfo says which WaferScope this is: the project version, the git
// revision it was built from (from a header generated at build time by
// packaging/cmake/revision.cmake), and the libraries it links with their
// versions and licences. `--version`, Help > About and every export's
// metadata (ExportStamp) read it from here.

#include <QList>
#include <QString>

namespace ws {

struct LibraryInfo
{
    QString name;    // "Qt", "FFmpeg", ...
    QString version; // as the library reports it at run time where it can, else as built against
    QString licence; // SPDX expression
    QString url;
};

class BuildInfo
{
public:
    static QString version();     // "0.1.0" (CMake's PROJECT_VERSION)
    static QString revision();    // "e9c7084abc", "e9c7084abc-dirty" or "unknown"
    static QString versionText(); // "0.1.0 (git e9c7084abc)"
    static QString generator();   // "WaferScope 0.1.0 (git e9c7084abc)": what exports record
    static QString licence();     // WaferScope's own licence, SPDX: "GPL-3.0-or-later"
    static QList<LibraryInfo> libraries();
};

} // namespace ws
