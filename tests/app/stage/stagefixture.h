#pragma once
// A stage on a parent widget, showing a synthetic scene of `devices` wafers of 40 x 24 cores, for the stage's
// tests.
#include "app/stage/stage.h"
#include "tests/views/syntheticsnapshot.h"
#include "views/mesh/meshview.h"

#include <QWidget>

#include <memory>

namespace wstest {

inline std::shared_ptr<const ws::PlacementResult> resultWith(int devices)
{
    auto r = std::make_shared<ws::PlacementResult>();
    r->snapshot = ws::testing::makeSyntheticSnapshot(40, 24, devices);
    r->devices = devices;
    return r;
}

struct StageFixture
{
    QWidget parent;
    ws::Stage stage{&parent};

    // A frame of the scene on show, without activity.
    std::shared_ptr<const ws::MeshFrame> frame() const
    {
        return std::make_shared<const ws::MeshFrame>(ws::MeshFrame{stage.view()->snapshot(), {}, {}});
    }
};

} // namespace wstest
