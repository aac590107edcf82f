#include "engine/gguf/modelfileformat.h"

#include "engine/gguf/gguffile.h"
#include "engine/gguf/llama2ccheckpoint.h"
#include "engine/gguf/mappedfile.h"

namespace ws {

Expected<ModelFileFormat> modelFileFormat(const std::string& path)
{
    auto head = MappedFile::readPrefix(path, 4);
    if (!head)
        return head.error();
    if ((*head)->sizeBytes() == 0) {
        Error e =
            makeError(ErrorCode::Format, "the file is empty: a model file is a GGUF file or a llama2.c checkpoint");
        e.file = path;
        return e;
    }
    auto gguf = isGgufFile(path);
    if (!gguf)
        return gguf.error();
    if (*gguf)
        return ModelFileFormat::Gguf;
    auto header = Llama2cCheckpoint::readHeader(path);
    if (!header) {
        Error e = header.error();
        e.text = "not a GGUF file (it does not begin with \"GGUF\") and not a llama2.c checkpoint: " + e.text;
        return e;
    }
    return ModelFileFormat::Llama2c;
}

} // namespace ws
