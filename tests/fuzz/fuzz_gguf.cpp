// GGUF reader: header, metadata, tensor index; on what it accepts, the model load (hyper-parameters and
// weight views) and the first forward step.
#include "engine/gguf/gguffile.h"
#include "tests/fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    wsfuzz::InputFile input(data, size);
    if (input.ok() && ws::GgufFile::open(input.path()))
        wsfuzz::loadAndStep(input.path());
    return 0;
}
