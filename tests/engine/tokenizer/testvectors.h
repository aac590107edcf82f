#pragma once
// Reads llama.cpp tokenizer test vectors: <vocab>.inp holds strings separated
// by "\n__ggml_vocab_test__\n"; <vocab>.out holds, per string, one line of
// space-separated token ids (made by llama.cpp's test-tokenizer-0: no BOS, no
// special-token parsing).

#include "engine/tokenizer/tokenid.h"

#include <QFile>
#include <QString>

#include <string>
#include <vector>

namespace wstest {

struct TokenizerVector
{
    std::string text;
    std::vector<ws::TokenId> ids;
};

// The file of the vector set at `base` that a data row names when the set cannot be read: `base`.inp when it
// is missing, else `base`.out (missing, or the two disagree). WS_REQUIRE_MODEL_FILE then fails it in CI.
inline QString unreadableVectorFile(const QString& base)
{
    return QFile::exists(base + QStringLiteral(".inp")) ? base + QStringLiteral(".out") : base + QStringLiteral(".inp");
}

inline std::string readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), static_cast<size_t>(bytes.size()));
}

// Empty on a read error or when the two files disagree on the count.
inline std::vector<TokenizerVector> readTokenizerVectors(const QString& inpPath, const QString& outPath)
{
    const std::string inp = readAll(inpPath);
    const std::string out = readAll(outPath);
    const std::string sep = "\n__ggml_vocab_test__\n";
    std::vector<std::string> texts;
    for (size_t pos = 0;;) {
        const size_t next = inp.find(sep, pos);
        if (next == std::string::npos) {
            texts.push_back(inp.substr(pos));
            break;
        }
        texts.push_back(inp.substr(pos, next - pos));
        pos = next + sep.size();
    }
    std::vector<std::vector<ws::TokenId>> lines;
    for (size_t pos = 0; pos <= out.size();) {
        size_t next = out.find('\n', pos);
        if (next == std::string::npos)
            next = out.size();
        std::vector<ws::TokenId> ids;
        size_t i = pos;
        while (i < next) {
            while (i < next && out[i] == ' ')
                ++i;
            if (i == next)
                break;
            ids.push_back(static_cast<ws::TokenId>(std::stol(out.substr(i, next - i))));
            while (i < next && out[i] != ' ')
                ++i;
        }
        lines.push_back(std::move(ids));
        pos = next + 1;
    }
    std::vector<TokenizerVector> vectors;
    if (texts.size() != lines.size())
        return vectors;
    for (size_t i = 0; i < texts.size(); ++i)
        vectors.push_back({texts[i], lines[i]});
    return vectors;
}

inline QString idsToString(const std::vector<ws::TokenId>& ids)
{
    QStringList parts;
    for (const ws::TokenId id : ids)
        parts << QString::number(id);
    return parts.join(QLatin1Char(' '));
}

} // namespace wstest
