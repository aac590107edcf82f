#pragma once
// Groq LPU decode: the weights (and KV cache) live in on-chip SRAM spread over
// as many chips as they need (SRAM per chip x a usable fraction, at the
// serving precision); layers form a pipeline over chip groups, each layer's
// chips stream their weights at SRAM bandwidth and compute at the chip's
// peak, and each layer pays chip-to-chip exchanges of a fitted cost (Groq,
// ISCA 2022 [Groq-ISCA22] in docs/sources.md: deterministic,
// software-scheduled network). The exchange cost is fitted to
// Groq's Llama 2 70B figures (JSON kind "lpu"). Up to one request per layer
// stage decodes at full speed; more share the stages as micro-batches.

//
// This file holds the LPU's physical model and its fit: the seconds one decode
// step spends streaming and computing on the chips and exchanging between
// them, and the exchange cost fitted to the measurements. The predictor
// (engine/predict/lpupredictor.h) builds a Prediction from it.

#include "engine/calibration/calibrationprofile.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/model/precision.h"

#include <cstdint>
#include <string>

namespace ws {

class ModelShape;

struct LpuEfficiency
{
    double exchangeS = 10e-6;        // per chip-to-chip exchange (fitted)
    double exchangesPerLayer = 2;    // after attention and after the MLP, as tensor parallel on GPUs
    double sramUsableFraction = 0.9; // rest: code, activations, buffers
};

struct LpuCalibration
{
    LpuEfficiency efficiency;
    // The exchange cost each row alone implies (smallest and largest): the spread of the fit.
    double exchangeSLow = 0;
    double exchangeSHigh = 0;
    CalibrationProfile profile;
};

// Seconds per step without the exchanges, and the exchange count (x exchangeS).
struct LpuTerms
{
    double local = 0;     // SRAM streaming and compute, layer after layer
    double exchanges = 0; // count
    double seconds(const LpuEfficiency& e) const { return local + exchanges * e.exchangeS; }
};

// What a decode step reads of the model at a precision and context: taken from its ModelShape once, so a
// prediction that times many steps (its curve, floor and drivers) does not build the shape for each.
struct LpuModelFacts
{
    int layers = 0;
    int moeLayers = 0;
    int64_t bytesReadPerToken = 0; // weights
    int64_t kvBytes = 0;           // one request's cache at the context
    int64_t activeParameters = 0;
    double mlaAttentionFlops = 0; // per token at the context
};
LpuModelFacts lpuModelFacts(const ModelShape& shape, Precision p, int64_t context);

// One decode step of `tokensPerStage` tokens per pipeline stage on `chips` chips.
LpuTerms lpuTerms(const ModelConfig& m, const LpuSpec& l, Precision p, int chips, double tokensPerStage,
                  int64_t context, int concurrencyForKv, const LpuEfficiency& e);
// The same step from the model's facts at that precision and context.
LpuTerms lpuTerms(const LpuModelFacts& m, const LpuSpec& l, Precision p, int chips, double tokensPerStage,
                  int concurrencyForKv, const LpuEfficiency& e);
// Bytes per KV element at a serving precision (8-bit serving keeps an 8-bit cache).
int lpuKvBytes(Precision p);
// Operations per second a chip computes at a precision.
double lpuPeakOps(const LpuSpec& l, Precision p);

Expected<LpuCalibration> fitLpuProfile(const std::string& jsonText, const LpuEfficiency& defaults = {});
const Expected<LpuCalibration>& shippedLpuCalibration();

int lpuChipsNeeded(const ModelConfig& model, const LpuSpec& lpu, Precision precision, int64_t context, int concurrency,
                   const LpuEfficiency& e);

} // namespace ws
