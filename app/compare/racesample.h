#pragma once
// A token stream from a real model run, for the race until a live session
// feeds it: the stories260K reference outputs (prompt and greedy
// continuation, split exactly at the model's token boundaries), each run up
// to its last full sentence (the runs stopped after 64 tokens, mid-word).

#include <QCoreApplication>
#include <QStringList>

namespace ws {

class RaceSample
{
    Q_DECLARE_TR_FUNCTIONS(ws::RaceSample)

public:
    static QStringList pieces();
    static QString source();
};

} // namespace ws
