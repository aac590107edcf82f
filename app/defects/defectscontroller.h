#pragma once
// The engine side of the Defects dock. The controller owns one wafer's
// DefectEditor (engine/wafer/redundancy/defecteditor.h: dead cores, undo and
// redo) for the scenario the stage shows, started from the scenario's own
// defects on that wafer. After every edit the scenario's defects become the
// edited wafer's map (DefectRequest::withDevice) and a worker thread asks the
// engine's one answer for them (engine/scene/defectsanswer.h, as `render`,
// `record` and the chat's wafer do): the model placed around the defects with
// the snapshot's Defects layer, the hop stretch S_max over the placed regions
// (option B [WaferScope-model] in docs/sources.md), the time per token before
// and after; beside it the spare layout's yield curves and the displacement
// arrows of the wafer shown. Jobs run through app/common/jobtracker.h: every
// job carries its job id; a result that is not the latest job's is dropped
// (its yield curves are kept when they are the latest layout's). The
// controller owns the placement cache its jobs share.

#include "app/common/jobtracker.h"
#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"
#include "engine/predict/placementcache.h"
#include "engine/scene/defectsanswer.h"
#include "engine/scene/scene.h"
#include "engine/spec/scenariospec.h"
#include "engine/spec/workload.h"
#include "engine/wafer/placement/meshsnapshot.h"
#include "engine/wafer/redundancy/defecteditor.h"
#include "engine/wafer/redundancy/remap.h"
#include "engine/wafer/redundancy/yieldcurves.h"
#include "views/mesh/meshview.h"

#include <QObject>
#include <QRect>
#include <QString>

#include <memory>
#include <optional>

namespace ws {

// What the defects apply to: the scenario the stage shows.
struct DefectsContext
{
    ScenarioSpec spec;                            // the model, the wafers, the workload and the scenario's defects
    std::shared_ptr<const WaferScene> scene;      // buildWaferScene(spec)'s, when already built (else built here)
    std::shared_ptr<const MeshSnapshot> snapshot; // the mesh the heatmap's cells are on (the scene's by default)
    int device = 0;                               // the wafer the editor edits
};

// One finished job: the engine's answer (answerDefects: remap, summary, usable mesh, the scene placed around
// the defects, hop stretch, time per token before and after), with what the Defects dock shows beside it.
struct DefectsOutcome : DefectsAnswer
{
    quint64 requestId = 0;
    DefectRequest defects;                        // what the answer is for (the scenario's, with the edit)
    std::shared_ptr<const MeshSnapshot> snapshot; // the scene's, its Defects layer filled
    std::shared_ptr<const views::CoreDisplacement> displacement; // arrows for the heatmap's cells
    std::shared_ptr<const YieldCurves> yieldCurves;              // null when unchanged since the last job

    bool remapped() const { return remap != nullptr; } // the summary is valid
};

// The engine's answer for the context's spec with `defects` (answerDefects), with the yield curves of `layout`
// when asked and the arrows of the context's device; plain values in and out, safe on any thread. `placements`
// (may be null) keeps the placements the predictions make for reuse by later calls.
DefectsOutcome computeDefectsOutcome(const DefectsContext& context, const DefectRequest& defects,
                                     const SpareLayout& layout, bool withYieldCurves,
                                     PlacementCache* placements = nullptr);

class DefectsController : public QObject
{
    Q_OBJECT

public:
    explicit DefectsController(QObject* parent = nullptr);
    ~DefectsController() override;

    // A new scenario on stage: the editor starts from its defects on the context's wafer (keeping its history
    // when they are what the editor already has). A scene the controller answered itself starts no job.
    Status setContext(DefectsContext context);
    // The defects the editor describes: the context's, with the edited wafer's map when it was edited.
    DefectRequest defects() const;
    bool hasContext() const { return m_editor != nullptr; }
    int contextDevice() const { return m_context ? m_context->device : -1; }
    // The spare scheme: row-shift segments from the preset, or spare rows and columns per die
    // (dieSpares of each, a parameter: not published). Changing it starts an empty map.
    Status setScheme(SpareScheme scheme, int dieSpares = 2);
    SpareScheme scheme() const { return m_scheme; }
    const SpareLayout* layout() const { return m_editor ? &m_editor->layout() : nullptr; }
    const DefectEditor* editor() const { return m_editor.get(); }

    // Edits; each starts a new job. Seeds make random draws repeatable.
    Status injectPoisson(double defectsPerMm2, uint64_t seed);
    Status injectClustered(double defectsPerMm2, double alpha, uint64_t seed);
    Status injectRandom(double deadFraction, uint64_t seed);
    Status killDie(int dieX, int dieY);
    Status setCores(const std::vector<PhysicalCore>& cores, bool dead);
    // Cells of the heatmap (the snapshot's mesh: fabric or usable coordinates) as their nominal physical cores.
    Status setMeshRect(QRect cells, bool dead);
    Status clear();
    bool undo();
    bool redo();
    bool canUndo() const { return m_editor && m_editor->canUndo(); }
    bool canRedo() const { return m_editor && m_editor->canRedo(); }

    // The latest accepted outcome (null before the first), and whether a job is running.
    std::shared_ptr<const DefectsOutcome> outcome() const { return m_outcome; }
    std::shared_ptr<const YieldCurves> yieldCurves() const { return m_yieldCurves; }
    bool isBusy() const { return m_jobs.isBusy(); }
    quint64 latestRequest() const { return m_jobs.latestId(); }
    // Where finished jobs land: accepted only when it answers the latest request.
    bool acceptOutcome(DefectsOutcome outcome);

signals:
    void outcomeChanged();
    void historyChanged();
    void busyChanged(bool busy);

private:
    Status rebuildEditor(const DefectRequest& defects);
    Status edited(Status status);
    void start();

    std::optional<DefectsContext> m_context;
    std::unique_ptr<DefectEditor> m_editor;
    SpareScheme m_scheme = SpareScheme::RowShift;
    int m_dieSpares = 2;
    bool m_edited = false; // the editor's map differs from the context's defects (an edit or a scheme)
    bool m_curvesStale = true;
    std::shared_ptr<const DefectsOutcome> m_outcome;
    std::shared_ptr<const YieldCurves> m_yieldCurves;
    JobTracker m_jobs;
    quint64 m_curvesRequestId = 0;
    std::shared_ptr<PlacementCache> m_placements; // shared with the jobs (thread-safe)
};

} // namespace ws
