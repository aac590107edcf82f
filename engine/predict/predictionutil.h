#pragma once
// Helpers shared by the wafer, GPU and LPU predictors: the scenario times
// (agent workflow, Chinese answer), energy per token, speculative decoding
// and the concurrency levels of the throughput curve.

#include "engine/predict/prediction.h"
#include "engine/spec/workload.h"

#include "engine/core/error.h"
#include "engine/core/numbertext.h" // the predictors' notes write numbers with it, the same in every locale
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"

#include <functional>
#include <string>
#include <vector>

namespace ws {

// 1, 2, 4, ... up to 1024, plus `requested`, sorted and unique.
std::vector<int> concurrencyLevels(int requested);

// Fills agentWorkflowSeconds, answerSeconds(+range) and joulesPerToken from the
// speeds, TTFT and power already set.
void completeScenarios(Prediction& prediction, const Workload& workload);

// Seconds per output token with speculative decoding: (k drafts + one verify of
// k+1 tokens) / expected tokens per step. verifySeconds(k+1) times the verify.
double speculativeSecondsPerToken(const SpeculativeDecoding& spec, double draftSecondsPerToken,
                                  const std::function<double(int)>& verifySeconds);

// Checks a requested device count against the fewest devices that hold the
// model (`needed`; requested <= 0 means "choose") and starts a Prediction with
// the model, hardware, profile and device fields set. `unit` names the device
// in messages ("GPUs", "chips"), `chosenNote` explains an automatic choice.
Expected<Prediction> startPrediction(const ModelConfig& model, const HardwareSpec& hardware, const std::string& profile,
                                     const Workload& workload, int needed, int requested, const std::string& unit,
                                     const std::string& chosenNote);

// A range driver from the speeds per user with the input at its low and high
// value; effect is set, share is left to finishRange.
RangeDriver rangeDriver(std::string input, std::string unit, double assumed, double low, double high,
                        std::string source, double pointTps, double tpsAtLow, double tpsAtHigh);

// Sets the speed range from p.rangeDrivers around the point (largest effect
// first, shares filled in), then the ceiling from p.ceiling's roofs, cutting
// the point, range and scenarios to it should the model exceed it.
void finishRange(Prediction& p);

// Sets p.floor (its seconds per output token already combined by the predictor) and lifts the point to it:
// modelSeconds is the point as it stood, and where the floor is above it the point, the per-user and
// aggregate speeds take the floor and the breakdown gains a "fixed_cost_floor" entry for the difference
// (so it still sums to the token time).
void settleFloor(Prediction& p, Floor floor);

// The KV cache a model keeps per token at `bytesPerValue` (ModelShape::kvBytesPerToken; MLA: the latent).
KvCacheFacts kvCacheFacts(const ModelConfig& model, double bytesPerValue);

// Fills p.cost from the hardware's hourly cost per device, the devices used and the aggregate rate.
void completeCost(Prediction& p, const HardwareSpec& hardware);

} // namespace ws
