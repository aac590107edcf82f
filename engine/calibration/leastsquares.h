#pragma once
// Linear least squares for calibration: find coefficients c minimising
// sum_i w_i (sum_j X_ij c_j - y_i)^2. Calibration profiles use it to fit a
// predictor's efficiency constants to published measurements; with relative
// weighting (w_i = 1/y_i^2) every measurement counts by its percentage error,
// so a 10 ms row and a 100 ms row pull equally. The result carries the fitted
// values and the residuals so the app can show how good the fit is.

#include "engine/core/error.h"

#include <vector>

namespace ws {

struct LeastSquaresFit
{
    std::vector<double> coefficients;      // one per column of X
    std::vector<double> fitted;            // X c, one per row
    std::vector<double> relativeResiduals; // (fitted - observed) / observed, one per row
    double rmsRelativeResidual = 0;
    double maxAbsRelativeResidual = 0;
};

enum class LeastSquaresWeighting
{
    Absolute,
    Relative
};

// X is row-major: X[i] holds the basis values of measurement i. Fails when the
// rows are ragged, fewer than the columns, contain non-finite values, an
// observation is not positive (relative weighting), or the columns are
// linearly dependent.
Expected<LeastSquaresFit> fitLeastSquares(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                                          LeastSquaresWeighting weighting = LeastSquaresWeighting::Relative);

} // namespace ws
