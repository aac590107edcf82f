// llama2.c checkpoint reader, then the model load and the first forward step on what it accepts.
#include "engine/gguf/llama2ccheckpoint.h"
#include "tests/fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    wsfuzz::InputFile input(data, size);
    if (input.ok() && ws::Llama2cCheckpoint::open(input.path()))
        wsfuzz::loadAndStep(input.path());
    return 0;
}
