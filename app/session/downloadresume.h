#pragma once
// What a download reads from outside before it trusts a byte: the file name taken from the address the
// user typed, and the server's Content-Range answer to a resume ("<name>.part" already holds N bytes, the
// request asked for "bytes=N-"). Qt Core only, in the readers library (app/CMakeLists.txt), so the fuzz
// target (tests/fuzz/fuzz_downloadresume.cpp) links these two readers and nothing of the downloader.

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <utility>

namespace ws::DownloadResume {

// The last path segment with anything but [A-Za-z0-9._-] replaced by '_'; "model.bin" when that is empty or
// starts with '.', so the name never leaves the download folder and is never hidden.
QString fileNameFor(const QUrl& url);

// "bytes 100-199/1000" -> {100, 1000}; "bytes */1000" -> {-1, 1000}; "bytes 100-199/*" -> {100, -1}.
// Anything else, or a number past qint64: {-2, -1} (the caller then refuses the resume).
std::pair<qint64, qint64> parseContentRange(const QByteArray& value);

} // namespace ws::DownloadResume
