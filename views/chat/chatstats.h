#pragma once
// The stats line under an answer in the chat pane: tokens, speed measured on
// this CPU, and the time each compared system is predicted to need for the
// same tokens (from the engine's predictors, carried in the snapshot).

#include "engine/session/sessionsnapshot.h"

#include <QCoreApplication>
#include <QLocale>
#include <QString>

namespace ws::views {

class ChatStats
{
    Q_DECLARE_TR_FUNCTIONS(ChatStats)
public:
    // The reply's stats line; while the prompt is still being read, how much of it ("reading the prompt: N of M
    // tokens"); once read, its speed on this CPU beside the decode speed.
    static QString format(const SessionSnapshot& snapshot, const QLocale& locale = QLocale());
    // The turn is still evaluating its prompt (no token generated yet).
    static bool readingPrompt(const SessionSnapshot& snapshot);
    // "0.8 ms", "12 ms", "1.25 s", "2 min 05 s"
    static QString formatSeconds(double seconds, const QLocale& locale = QLocale());
    static QString formatRate(double tokensPerSecond, const QLocale& locale = QLocale());
};

} // namespace ws::views
