#pragma once
// Which reader a model file needs. A file that begins with GGUF's magic is read as GGUF; any other file must
// be a llama2.c checkpoint, whose header (seven int32, then the size they imply) is checked here, so that a
// file that is neither is refused with an error that says so (and an empty file with one that says it is
// empty) rather than with a llama2.c header complaint about a file that was never meant to be one.

#include "engine/core/error.h"

#include <string>

namespace ws {

enum class ModelFileFormat
{
    Gguf,
    Llama2c,
};

// The format of the model file at `path`; a Format error names the file when it is empty or is neither
// format, an Io or NotFound error when it cannot be read.
Expected<ModelFileFormat> modelFileFormat(const std::string& path);

} // namespace ws
