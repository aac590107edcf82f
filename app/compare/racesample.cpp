#include "app/compare/racesample.h"

namespace ws {

QStringList RaceSample::pieces()
{
    // Prompt and greedy continuation, token by token, of the four reference runs in
    // llama.cpp's reference output for stories260K (stories260K.reference.json of the test
    // models; llama.cpp c392e509, stories260K.gguf,
    // temperature 0, 64 new tokens each); "\n\n" separates the runs, <0x0A> is a newline.
    static const char* const kPieces[] = {
        " Once", " upon",   " a",      " time", ",",     " there",  " was",  " a",    " little", " g",   "ir",
        "l",     " named",  " Lily",   ".",     " She",  " lo",     "ved",   " to",   " play",   " ",    "out",
        "s",     "id",      "e",       " in",   " the",  " p",      "ar",    "k",     ".",       " One", " day",
        ",",     " she",    " saw",    " a",    " big",  ",",       " r",    "ed",    " b",      "all",  ".",
        " She",  " want",   "ed",      " to",   " play", " with",   " it",   ",",     " but",    " it",  " was",
        " to",   "o",       " h",      "ig",    "h",     ".",       "\n",    "L",     "ily",     "'",    "s",
        " mom",  " said",   "\n\n",    " Lily", " want", "ed",      " to",   " g",    "o",       " on",  " a",
        " wa",   "l",       "k",       ".",     " She",  " saw",    " a",    " big",  " b",      "o",    "x",
        " with", " a",      " big",    " b",    "o",     "x",       ".",     " She",  " want",   "ed",   " to",
        " s",    "e",       "e",       " w",    "h",     "at",      " was",  " in",   "s",       "id",   "e",
        ".",     " She",    " want",   "ed",    " to",   " s",      "e",     "e",     " w",      "h",    "at",
        " was",  " in",     "s",       "id",    "e",     ".",       "\n",    "\"",    "H",       "e",    "ll",
        "o",     ",",       " little", " b",    "o",     "\n\n",    " The",  " c",    "at",      " and", " a",
        " b",    "o",       "y",       " we",   "re",    " play",   "ing",   " in",   " the",    " p",   "ar",
        "k",     ".",       " They",   " li",   "ked",   " to",     " play", " with", " the",    "ir",   " to",
        "y",     "s",       " and",    " r",    "un",    " a",      "r",     "ou",    "nd",      " the", " p",
        "ar",    "k",       ".",       " They", " li",   "ked",     " to",   " play", " with",   " the", "ir",
        " to",   "y",       "s",       " and",  " s",    "e",       "e",     "k",     ".",       "\n",   "O",
        "n",     "e",       " day",    ",",     " a",    " little", " b",    "\n\n",  " One",    " day", ",",
        " a",    " little", " b",      "o",     "y",     " named",  " T",    "om",    " w",      "ent",  " to",
        " the",  " p",      "ar",      "k",     " with", " his",    " mom",  ".",     " They",   " saw", " a",
        " big",  " b",      "o",       "x",     " with", " a",      " big",  " b",    "o",       "x",    ".",
        " T",    "om",      " want",   "ed",    " to",   " play",   " with", " it",   ",",       " but", " he",
        " was",  " to",     "o",       " s",    "m",     "all",     ".",     " He",   " want",   "ed",   " to",
        " play", " with",   " the",    " b",    "o",     "x",       ".",     "\n",    "T",       "om",   " said",
        ",",     " \"",     "M",       "om",    ",",     " c",
    };
    // Each run stopped after 64 tokens, mid-word (" little b"): the race shows each up to its last full sentence,
    // so that every answer ends where a reader expects it to.
    const QString separator = QStringLiteral("\n\n");
    QStringList out;
    QStringList run;
    const auto keepWholeSentences = [&] {
        while (!run.isEmpty() && !run.last().endsWith(QLatin1Char('.')))
            run.removeLast();
        if (!out.isEmpty() && !run.isEmpty())
            out << separator;
        out << run;
        run.clear();
    };
    for (const char* p : kPieces) {
        const QString piece = QString::fromUtf8(p);
        if (piece == separator)
            keepWholeSentences();
        else
            run << piece;
    }
    keepWholeSentences();
    return out;
}

QString RaceSample::source()
{
    return tr("four greedy runs of the stories260K model (llama.cpp's reference output), token by token, each up to "
              "its last full sentence");
}

} // namespace ws
