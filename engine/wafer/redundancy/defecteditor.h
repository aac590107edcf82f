#pragma once
// Interactive defect editing with undo and redo. The editor owns one wafer's
// defect map and its remap, and re-runs the remap after every change, so the
// app can redraw at once. Every edit is stored as its inverse: the list of cores
// whose state it flipped (an edit only ever flips cores, so flipping the same
// list again undoes it, and once more redoes it). Edits that change nothing are
// not recorded. Random injections are seeded: the same seed gives the same cores.

#include "engine/core/error.h"
#include "engine/wafer/redundancy/defectmap.h"
#include "engine/wafer/redundancy/remap.h"
#include "engine/wafer/redundancy/sparelayout.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ws {

enum class DefectEdit
{
    SetCores,
    Random,
    Poisson,
    Clustered,
    Die,
    Clear
};

class DefectEditor
{
public:
    static constexpr int kMaxHistory = 200;

    explicit DefectEditor(const SpareLayout& layout);
    // Starts from `defects` (the layout's physical size; another size starts empty), with no history.
    DefectEditor(const SpareLayout& layout, DefectMap defects);

    const SpareLayout& layout() const { return m_layout; }
    const DefectMap& defects() const { return m_defects; }
    const Remap& remap() const { return m_remap; }

    // Clicked or brushed physical cores, marked dead (or healthy again).
    Status setCores(const std::vector<PhysicalCore>& cores, bool dead);
    // A brushed rectangle of physical cores (clipped to the mesh), one undo step.
    Status setRect(PhysicalRect rect, bool dead);
    // Adds the dead cores of a seeded draw to the map (see DefectMap).
    Status injectRandom(double rate, uint64_t seed);
    Status injectPoisson(double defectsPerMm2, uint64_t seed);
    Status injectClustered(double defectsPerMm2, double alpha, ClusterScope scope, uint64_t seed);
    Status killDie(int dieX, int dieY);
    Status clear();

    bool canUndo() const { return !m_undo.empty(); }
    bool canRedo() const { return !m_redo.empty(); }
    bool undo();
    bool redo();
    // The kind of edit the next undo/redo reverts (valid when canUndo()/canRedo()); the app names it.
    DefectEdit undoKind() const { return m_undo.back().kind; }
    DefectEdit redoKind() const { return m_redo.back().kind; }

private:
    struct Command
    {
        DefectEdit kind = DefectEdit::SetCores;
        std::vector<int32_t> flipped; // physical core indices
    };

    Status unite(DefectEdit kind, Expected<DefectMap> drawn);
    void record(Command command);
    void flip(const std::vector<int32_t>& cores);
    void remapNow();

    SpareLayout m_layout;
    DefectMap m_defects;
    Remap m_remap;
    std::deque<Command> m_undo;
    std::vector<Command> m_redo;
};

} // namespace ws
