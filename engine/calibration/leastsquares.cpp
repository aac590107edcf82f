#include "engine/calibration/leastsquares.h"

#include <Eigen/Dense>

#include <cmath>
#include <string>

namespace ws {

Expected<LeastSquaresFit> fitLeastSquares(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                                          LeastSquaresWeighting weighting)
{
    const size_t rows = x.size();
    if (rows == 0 || rows != y.size())
        return makeError(ErrorCode::InvalidArgument,
                         "least squares needs one observation per row of the design matrix");
    const size_t cols = x.front().size();
    if (cols == 0)
        return makeError(ErrorCode::InvalidArgument, "least squares needs at least one coefficient");
    if (rows < cols)
        return makeError(ErrorCode::InvalidArgument, "least squares needs at least as many measurements (" +
                                                         std::to_string(rows) + ") as fitted constants (" +
                                                         std::to_string(cols) + ")");
    Eigen::MatrixXd a(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
    Eigen::VectorXd b(static_cast<Eigen::Index>(rows));
    for (size_t i = 0; i < rows; ++i) {
        if (x[i].size() != cols)
            return makeError(ErrorCode::InvalidArgument,
                             "design matrix row " + std::to_string(i) + " has the wrong size");
        if (!std::isfinite(y[i]) || (weighting == LeastSquaresWeighting::Relative && y[i] <= 0))
            return makeError(ErrorCode::InvalidArgument,
                             "observation " + std::to_string(i) + " must be a positive finite number");
        const double w = weighting == LeastSquaresWeighting::Relative ? 1.0 / y[i] : 1.0;
        for (size_t j = 0; j < cols; ++j) {
            if (!std::isfinite(x[i][j]))
                return makeError(ErrorCode::InvalidArgument, "design matrix value is not finite");
            a(Eigen::Index(i), Eigen::Index(j)) = x[i][j] * w;
        }
        b(Eigen::Index(i)) = y[i] * w;
    }
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
    if (qr.rank() < Eigen::Index(cols))
        return makeError(ErrorCode::InvalidArgument,
                         "the measurements do not determine every constant (linearly dependent columns)");
    const Eigen::VectorXd c = qr.solve(b);

    LeastSquaresFit fit;
    fit.coefficients.assign(c.data(), c.data() + c.size());
    double sumSq = 0;
    for (size_t i = 0; i < rows; ++i) {
        double v = 0;
        for (size_t j = 0; j < cols; ++j)
            v += x[i][j] * c(Eigen::Index(j));
        fit.fitted.push_back(v);
        const double r = y[i] != 0 ? (v - y[i]) / y[i] : v - y[i];
        fit.relativeResiduals.push_back(r);
        sumSq += r * r;
        fit.maxAbsRelativeResidual = std::max(fit.maxAbsRelativeResidual, std::abs(r));
    }
    fit.rmsRelativeResidual = std::sqrt(sumSq / double(rows));
    return fit;
}

} // namespace ws
