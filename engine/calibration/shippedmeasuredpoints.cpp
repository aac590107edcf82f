// The shipped measured points (engine/calibration/measuredpoints.h): every shipped measurement file read, and the
// protocol's cross-file rules checked (a `shares` tag names a calibration file or row; a check row cites nothing a
// calibration row cites). A file that fails is an error naming it, never a silent gap.
#include "engine/calibration/measuredpoints.h"
#include "engine/calibration/measurementdata.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace ws {

namespace {
// What a source cites: its web addresses and its [citation keys] (docs/sources.md).
std::vector<std::string> citations(const std::string& source)
{
    std::vector<std::string> out;
    for (size_t at = 0; (at = source.find("http", at)) != std::string::npos;) {
        size_t end = at;
        while (end < source.size() && !std::isspace(static_cast<unsigned char>(source[end])) && source[end] != ')' &&
               source[end] != ',' && source[end] != ';' && source[end] != '\'')
            ++end;
        std::string url = source.substr(at, end - at);
        while (!url.empty() && (url.back() == '.' || url.back() == '/'))
            url.pop_back();
        if (url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0)
            out.push_back(url.substr(url.find("//") + 2));
        at = end;
    }
    for (size_t at = 0; (at = source.find('[', at)) != std::string::npos;) {
        const size_t end = source.find(']', at);
        if (end == std::string::npos)
            break;
        const std::string key = source.substr(at + 1, end - at - 1);
        // Citation keys are words joined by hyphens ("WaferLLM-T4"), not prose in brackets ("[figure from memory]").
        if (!key.empty() && key.find(' ') == std::string::npos)
            out.push_back("[" + key + "]");
        at = end + 1;
    }
    return out;
}

Expected<std::vector<MeasuredPoint>> loadShipped()
{
    std::vector<MeasuredPoint> out;
    for (const EmbeddedMeasurementFile& f : embeddedMeasurementFiles()) {
        std::string kind;
        auto points = readMeasuredPoints(std::string(f.text), MeasuredOrigin::Reference, &kind);
        // Prices (engine/cost) and serving stacks (stackprofile.h) are not speeds: their kind is refused, and the
        // kind read tells them from a kind that is wrong (each file parsed once).
        if (!points && points.error().field == "kind" && (kind == "api-price" || kind == "stack-profiles"))
            continue;
        if (!points) {
            Error e = points.error();
            e.file = std::string(f.name);
            return e;
        }
        out.insert(out.end(), std::make_move_iterator(points->begin()), std::make_move_iterator(points->end()));
    }
    // Each calibration row's citations, read once: every check row is compared with all of them.
    std::vector<std::vector<std::string>> calibrationCites(out.size());
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i].role == MeasuredRole::Calibration)
            calibrationCites[i] = citations(out[i].source);
    for (const MeasuredPoint& p : out) {
        for (const std::string& shared : p.shares) {
            const size_t slash = shared.find('/');
            const std::string set = shared.substr(0, slash);
            const std::string label = slash == std::string::npos ? "" : shared.substr(slash + 1);
            const bool found = std::any_of(out.begin(), out.end(), [&](const MeasuredPoint& c) {
                return c.origin == MeasuredOrigin::Calibration && c.set == set && (label.empty() || c.label == label);
            });
            if (!found) {
                Error e = makeError(ErrorCode::NotFound,
                                    "'" + p.label + "' shares '" + shared + "', which names no calibration file or row",
                                    "shares");
                e.file = p.set;
                return e;
            }
        }
        if (p.role != MeasuredRole::Check)
            continue;
        for (const std::string& cited : citations(p.source))
            for (size_t i = 0; i < out.size(); ++i)
                if (const MeasuredPoint& c = out[i]; c.role == MeasuredRole::Calibration) {
                    const std::vector<std::string>& theirs = calibrationCites[i];
                    if (std::find(theirs.begin(), theirs.end(), cited) != theirs.end()) {
                        Error e = makeError(ErrorCode::Format,
                                            "check row '" + p.label + "' cites " + cited + " as calibration row '" +
                                                c.label + "' (" + c.set +
                                                ") does: a row sharing a source with calibration rows is a "
                                                "development row, never a check row",
                                            "source");
                        e.file = p.set;
                        return e;
                    }
                }
    }
    return out;
}
} // namespace

const Expected<std::vector<MeasuredPoint>>& shippedMeasuredPoints()
{
    static const Expected<std::vector<MeasuredPoint>> all = loadShipped();
    return all;
}

} // namespace ws
