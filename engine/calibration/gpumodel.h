#pragma once
// GPU decode as a sum of terms ([Roofline-decode], [Databricks-MBU],
// [Megatron-TP] in docs/sources.md): streaming the weights and the
// KV cache from HBM, tensor-core compute, a fixed overhead per layer (kernel
// launches), and two all-reduces per layer for tensor parallelism over N GPUs
// (ring: 2(N-1) steps, split between NVLink inside a node and the network
// between nodes, plus the payload over NVLink). The efficiency constants
// (memory and compute time factors, per-layer overhead, per-step latencies)
// come from a calibration profile; everything else is the hardware preset and
// the model shape. Terms are kept apart so the profile fit is linear and the
// breakdown shows them.

#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"
#include "engine/wafer/dataflow/timingparams.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ws {

struct GpuEfficiency
{
    double memoryTimeFactor = 1.0 / 0.6; // 1 / achieved fraction of HBM bandwidth
    double computeTimeFactor = 2.0;      // 1 / achieved fraction of dense tensor throughput
    double layerOverheadS = 0.0;         // per layer per step: kernel launches and synchronisation
    double allreduceStepS = 5e-6;        // per ring step inside a node (NVLink)
    double interNodeStepS = 20e-6;       // per ring step between nodes (network)
    double memoryUsableFraction = 0.9;   // HBM for weights and KV (rest: runtime, activations)
    // The stack's all-reduce inside a node: NVSwitch multicast in 2 steps (TensorRT-LLM MultiShot [NVIDIA-MultiShot])
    // instead of a ring's 2(N-1). A property of the measured stack (measurement file "allreduce": "multishot").
    bool multiShotAllReduce = false;
};

// One entry per constant, with its source (the profile for fitted ones).
std::vector<ParamInfo> describe(const GpuEfficiency& e, const std::string& profile);

struct GpuStep
{
    int gpus = 1;
    int concurrency = 1;         // requests decoding together
    int64_t context = 4096;      // KV tokens per request
    double tokensPerRequest = 1; // tokens each request processes per step (speculative verify: k+1)
    double prefillPerOutput = 0; // prompt tokens processed per output token (continuous batching)
    Precision precision = Precision::Bf16;
    int kvBytesPerValue = 2;         // 16-bit KV cache; 1 for an 8-bit cache
    bool multiShotAllReduce = false; // 2 steps per all-reduce inside a node (NVSwitch multicast) instead of 2(N-1)
};

// Each term in seconds at unit factors; stepSeconds() applies a profile.
struct GpuStepTerms
{
    double memory = 0;     // (weights + KV) / (N x HBM bandwidth)
    double compute = 0;    // FLOPs / (N x peak)
    double layers = 0;     // layers in dense-layer kernel equivalents (gpuKernelLayers; x layerOverheadS)
    double intraSteps = 0; // ring steps inside nodes per token (x allreduceStepS)
    double interSteps = 0; // ring steps between nodes (x interNodeStepS)
    double link = 0;       // all-reduce payload over NVLink, seconds (not fitted)

    double seconds(const GpuEfficiency& e) const
    {
        return memory * e.memoryTimeFactor + compute * e.computeTimeFactor + layers * e.layerOverheadS +
               intraSteps * e.allreduceStepS + interSteps * e.interNodeStepS + link;
    }
};

// Dense tensor throughput of one GPU at a precision (the FP8 figure for 8-bit and narrower weights).
double gpuPeakFlops(const GpuSpec& gpu, Precision precision);

// Prompt tokens each decode step carries per output token when `concurrency`
// requests share the GPUs: the other requests' prompts, prompt/output x (B-1)/B.
double continuousBatchPrefill(double promptTokens, double outputTokens, int concurrency);

GpuStepTerms gpuStepTerms(const ModelConfig& model, const GpuSpec& gpu, const GpuStep& step);

// The model numbers a step needs (from ModelShape), computed once per precision, context and KV width.
struct GpuModelFacts
{
    int layers = 0;
    double kernelLayers = 0; // gpuKernelLayers(model)
    int hidden = 0;
    double weightBytesRead = 0; // per step
    double activeParameters = 0;
    double kvBytesPerRequest = 0; // at the step's context
    double attentionFlops = 0;    // per token at the step's context: MLA's absorbed attention (ModelShape)
};
GpuModelFacts gpuModelFacts(const ModelConfig& model, Precision precision, int64_t context, int kvBytesPerValue);

// The kernels one decode step launches in a layer, in units of a dense grouped-query layer's, summed over the
// layers: what a layer's fixed cost (launch gaps, small-matrix kernels that cannot fill the GPU, the
// synchronisation between them) scales with. TensorRT-LLM's min-latency decode of a DeepSeek-R1 MoE layer runs 13
// modules, 9 for its latent attention (the fused A-projection, the two RMSNorms, the query up-projection, the
// K up-projection, the KV-cache concatenation with RoPE, the attention, the V up-projection and the output
// projection, then the fused all-reduce with the residual norm) and 4 for its experts (router GEMM with top-k,
// shared expert, routed experts' grouped GEMM, the reduction with the all-reduce and norm) [TRTLLM-DSR1-latency];
// the same module boundaries give a grouped-query attention 5 (QKV projection, RoPE with the KV append, attention,
// output projection, all-reduce with norm) and a dense MLP 3 (gate/up projection with the activation, down
// projection, all-reduce with norm) [derived]. A dense layer counts 1, a DeepSeek MoE layer 13/8, a grouped-query
// layer with experts (gpt-oss, Llama 4's MoE layers) 9/8.
double gpuKernelLayers(const ModelConfig& model);
GpuStepTerms gpuStepTerms(const GpuModelFacts& facts, const GpuSpec& gpu, const GpuStep& step);

// The per-step costs of a GPU decode step that do not shrink with the model, from the hardware preset's
// floor constants (GpuSpec::decodeKernelsPerLayer ... allreduceLatencyS, each with its source):
//   roofline  = max(memory, compute) of `terms` at the peaks (every byte and FLOP of the step)
//   launches  = kernel layers (terms.layers) x kernels per layer x the GPU's idle gap per kernel inside a graph
//   allreduce = (N > 1) 2 per layer x the small-message all-reduce latency, plus the payload over NVLink
//   host      = the host's work per step (sampled token read back, output processing, scheduling)
//   eager     = layers x kernels per layer x the CPU's submission cost per kernel (no CUDA graphs)
// A step under CUDA graphs takes at least max(roofline + launches + allreduce, host): the kernels run back to
// back with a gap before each, and the host's work overlaps the device's at best. Without graphs the CPU
// submits the kernels as well: at least max(roofline + launches + allreduce, eager + host).
struct GpuFloorTerms
{
    double roofline = 0;
    double launches = 0;
    double allreduce = 0;
    double host = 0;
    double eager = 0;
    double device() const { return roofline + launches + allreduce; }
    double graphs() const { return std::max(device(), host); }
    double withoutGraphs() const { return std::max(device(), eager + host); }
};
GpuFloorTerms gpuFloorTerms(const GpuStepTerms& terms, int layers, const GpuSpec& gpu, int gpus);

// The fewest GPUs (1, 2, 4, 8, 16, ...) whose HBM holds the weights and the KV of `concurrency` requests.
int gpusNeeded(const ModelConfig& model, const GpuSpec& gpu, Precision precision, int64_t context, int concurrency,
               const GpuEfficiency& e);

} // namespace ws
