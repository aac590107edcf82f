#include "engine/calibration/gpumodel.h"

#include "engine/model/modelshape.h"

#include <algorithm>
#include <cmath>

namespace ws {

std::vector<ParamInfo> describe(const GpuEfficiency& e, const std::string& profile)
{
    const std::string fitted = "fitted: " + profile;
    return {
        {"memoryTimeFactor", "1/eta_mem", "x", e.memoryTimeFactor, true, fitted,
         "Inverse of the achieved fraction of HBM bandwidth when streaming weights and KV (0.55-0.85: Databricks "
         "[Databricks-MBU], WaferLLM Table 6 [WaferLLM-T6]; docs/sources.md)."},
        {"computeTimeFactor", "1/eta_c", "x", e.computeTimeFactor, true, fitted,
         "Inverse of the achieved fraction of dense tensor-core throughput."},
        {"layerOverheadS", "t_layer", "s", e.layerOverheadS, true, fitted,
         "Fixed time per layer per step: kernel launches and synchronisation, per dense-layer kernel equivalent "
         "(an MoE or latent-attention layer launches more kernels: gpuKernelLayers)."},
        {"allreduceStepS", "t_step", "s", e.allreduceStepS, true, fitted,
         "Latency of one ring all-reduce step over NVLink (ring has 2N-2 steps [NVIDIA-MultiShot]; ~6 us 2-GPU "
         "all-reduce, NVIDIA/nccl issue 1259 [NCCL-issues]; docs/sources.md)."},
        {"interNodeStepS", "t_ib", "s", e.interNodeStepS, true, fitted,
         "Latency of one all-reduce step between nodes (InfiniBand)."},
        {"memoryUsableFraction", "phi_hbm", "", e.memoryUsableFraction, false,
         "assumption: runtime, activations and fragmentation take the rest",
         "Fraction of HBM that holds weights and KV cache."},
        {"allreduceStepsInNode", "AR steps", "steps", e.multiShotAllReduce ? 2.0 : 0.0, false,
         e.multiShotAllReduce ? "the measured stack: TensorRT-LLM MultiShot, NVSwitch multicast [NVIDIA-MultiShot]"
                              : "the measured stack: ring all-reduce (NCCL default)",
         "Steps per all-reduce inside a node: 2 with NVSwitch multicast (MultiShot); 0 stands for a ring's 2(N-1)."},
    };
}

double gpuPeakFlops(const GpuSpec& g, Precision p)
{
    if ((p == Precision::Fp8 || p == Precision::Int8 || p == Precision::Int4 || p == Precision::Fp4) && g.fp8Flops > 0)
        return g.fp8Flops;
    return g.bf16Flops;
}

double continuousBatchPrefill(double promptTokens, double outputTokens, int concurrency)
{
    if (outputTokens <= 0 || concurrency <= 1)
        return 0;
    return promptTokens / outputTokens * double(concurrency - 1) / double(concurrency);
}

double gpuKernelLayers(const ModelConfig& model)
{
    constexpr double gqaAttention = 5, mlaAttention = 9, denseMlp = 3, moeMlp = 4; // [TRTLLM-DSR1-latency]
    const double attention = model.isMla() ? mlaAttention : gqaAttention;
    double sum = 0;
    for (int l = 0; l < model.layers; ++l)
        sum += (attention + (model.isMoeLayer(l) ? moeMlp : denseMlp)) / (gqaAttention + denseMlp);
    return sum;
}

GpuModelFacts gpuModelFacts(const ModelConfig& model, Precision precision, int64_t context, int kvBytesPerValue)
{
    const ModelShape shape(model);
    GpuModelFacts f;
    f.layers = model.layers;
    f.kernelLayers = gpuKernelLayers(model);
    f.hidden = model.hiddenSize;
    f.weightBytesRead = double(shape.bytesReadPerToken(precision));
    f.activeParameters = double(shape.activeParameters());
    f.kvBytesPerRequest = double(shape.kvBytes(std::max<int64_t>(1, context), std::max(1, kvBytesPerValue)));
    f.attentionFlops = shape.mlaAttentionFlops(context);
    return f;
}

GpuStepTerms gpuStepTerms(const ModelConfig& model, const GpuSpec& gpu, const GpuStep& s)
{
    return gpuStepTerms(gpuModelFacts(model, s.precision, s.context, s.kvBytesPerValue), gpu, s);
}

GpuStepTerms gpuStepTerms(const GpuModelFacts& f, const GpuSpec& gpu, const GpuStep& s)
{
    const double n = std::max(1, s.gpus);
    const double users = std::max(1, s.concurrency);
    GpuStepTerms t;
    t.memory = (f.weightBytesRead + users * f.kvBytesPerRequest) / (n * gpu.hbmBandwidthBytesPerS);
    const double tokens = users * s.tokensPerRequest * (1.0 + std::max(0.0, s.prefillPerOutput));
    t.compute = (2.0 * f.activeParameters + f.attentionFlops) * tokens / (n * gpuPeakFlops(gpu, s.precision));
    t.layers = f.kernelLayers;
    if (s.gpus > 1) {
        const int perNode = std::max(1, gpu.maxGpusPerNode);
        const int inNode = std::min(s.gpus, perNode);
        const int nodes = (s.gpus + perNode - 1) / perNode;
        const double allreduces = 2.0 * f.layers; // after attention and after the MLP [Megatron-TP]
        t.intraSteps = allreduces * (s.multiShotAllReduce && inNode > 1 ? 2.0 : 2.0 * (inNode - 1));
        t.interSteps = allreduces * 2.0 * (nodes - 1);
        // Ring all-reduce moves 2(N-1)/N of the payload over each GPU's link (one direction = half the bidirectional
        // figure).
        const double payload = users * s.tokensPerRequest * f.hidden * 2.0;
        const double perDirection = 0.5 * gpu.nvlinkBandwidthBytesPerS;
        if (perDirection > 0)
            t.link = allreduces * payload * 2.0 * (n - 1) / n / perDirection;
    }
    return t;
}

GpuFloorTerms gpuFloorTerms(const GpuStepTerms& terms, int layers, const GpuSpec& gpu, int gpus)
{
    GpuFloorTerms f;
    const double kernels = terms.layers * gpu.decodeKernelsPerLayer; // kernel layers: MoE and MLA launch more
    f.roofline = std::max(terms.memory, terms.compute);
    f.launches = kernels * gpu.kernelGapGraphS;
    if (gpus > 1)
        f.allreduce = 2.0 * std::max(0, layers) * gpu.allreduceLatencyS + terms.link;
    f.host = gpu.hostOverheadPerStepS;
    f.eager = kernels * gpu.kernelLaunchEagerS;
    return f;
}

int gpusNeeded(const ModelConfig& model, const GpuSpec& gpu, Precision precision, int64_t context, int concurrency,
               const GpuEfficiency& e)
{
    const ModelShape shape(model);
    const double need = double(shape.totalBytes(precision)) +
                        std::max(1, concurrency) * double(shape.kvBytes(std::max<int64_t>(1, context), 2));
    const double per = e.memoryUsableFraction * double(gpu.hbmBytes);
    if (per <= 0)
        return 0;
    for (int n = 1; n <= (1 << 20); n *= 2)
        if (n * per >= need)
            return n;
    return 0;
}

} // namespace ws
