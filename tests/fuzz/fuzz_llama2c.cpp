// llama2.c checkpoint reader, then the model load and the first forward step on what it accepts.
#include "engine/decode/decodemodel.h"
#include "engine/decode/generator.h"
#include "engine/gguf/llama2ccheckpoint.h"
#include "tests/fuzz/fuzzinput.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    wsfuzz::InputFile input(data, size);
    if (!input.ok())
        return 0;
    auto checkpoint = ws::Llama2cCheckpoint::open(input.path());
    if (!checkpoint)
        return 0;
    auto model = ws::DecodeModel::load(input.path());
    if (!model || model->config().vocabSize < 1 || model->weights().bytesPerToken() > (64u << 20))
        return 0;
    ws::Generator generator(*model, 2, 1);
    ws::GenerationSettings settings;
    settings.maxTokens = 1;
    const std::vector<ws::TokenId> prompt{0};
    if (generator.start(prompt, settings))
        (void)generator.step();
    return 0;
}
