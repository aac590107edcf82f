#pragma once
// The only two ways a test here may skip (tst_skips_bare finds any other QSKIP in tests/):
//  - WS_REQUIRE(condition, what): something CI always provides (a test model, a locale, a git checkout).
//    Missing, the test fails in CI (CI=true) with `what`, and elsewhere skips tagged [ws-skip:missing].
//    testmodels.h's WS_REQUIRE_MODEL and WS_REQUIRE_MODEL_FILE are this, for the models folder.
//  - WS_SKIP(reason, detail): something no machine can be made to do for a test (a filesystem that cannot
//    hold a huge sparse file, a container that may not mount). `reason` names one of wstest::allowedskip
//    below, whose tags are the allow-list; the skip line is tagged [ws-skip:<tag>].
// After ctest, tests/skips/skipcount.cmake counts the SKIP lines of the run (LastTest.log) by tag and, in
// CI, fails the run on a skip whose tag is not in the allow-list, which it reads from this file.

#include <QByteArray>
#include <QString>
#include <QTest>

namespace wstest {

inline bool runningInCi()
{
    return qgetenv("CI") == "true";
}

// The allow-list: the reasons a test may skip even in CI. One `inline constexpr char kName[] = "tag";`
// a line (skipcount.cmake reads the tags from these lines).
namespace allowedskip {
// The filesystem under the temporary folder refuses a sparse file larger than the machine's memory.
inline constexpr char kSparseFile[] = "sparse-file";
// mount(2) of a tmpfs is refused (not root, or a container without CAP_SYS_ADMIN): no full disk to test on.
inline constexpr char kNoMount[] = "no-mount";
// Linux refuses to remount a tmpfs read-only while a file in it is open for writing (the autosave's lock).
inline constexpr char kRemountBusy[] = "remount-busy";
} // namespace allowedskip

// The tag given to a skip for something CI must provide; never in the allow-list.
inline constexpr char kMissingTag[] = "missing";

inline QByteArray skipMessage(const char* tag, const QString& detail)
{
    return QByteArray("[ws-skip:") + tag + "] " + detail.toUtf8();
}

inline QByteArray requiredInCiMessage(const QString& what)
{
    return what.toUtf8() + " (CI=true: required in CI, so a failure rather than a skip)";
}

} // namespace wstest

// Use in a test function (it returns from it): fails in CI, skips elsewhere, when `condition` is false.
#define WS_REQUIRE(condition, what)                                                                                    \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            if (wstest::runningInCi())                                                                                 \
                QFAIL(wstest::requiredInCiMessage(what).constData());                                                  \
            QSKIP(wstest::skipMessage(wstest::kMissingTag, what).constData());                                         \
        }                                                                                                              \
    } while (false)

// Use in a test function: skips it for an allow-listed reason (wstest::allowedskip::<reason>), with `detail`.
#define WS_SKIP(reason, detail) QSKIP(wstest::skipMessage(wstest::allowedskip::reason, detail).constData())
