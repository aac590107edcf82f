#include "engine/wafer/redundancy/defecteditor.h"

#include <algorithm>
#include <string>
#include <utility>

namespace ws {

DefectEditor::DefectEditor(const SpareLayout& layout) : m_layout(layout), m_defects(DefectMap::forLayout(layout))
{
    remapNow();
}

DefectEditor::DefectEditor(const SpareLayout& layout, DefectMap defects) : m_layout(layout)
{
    const DefectMap empty = DefectMap::forLayout(layout);
    const bool fits = defects.cols() == empty.cols() && defects.rows() == empty.rows();
    m_defects = fits ? std::move(defects) : empty;
    remapNow();
}

void DefectEditor::remapNow()
{
    // Sizes match by construction, so the remap cannot fail here.
    (void)Remap::runInto(m_layout, m_defects, m_remap);
}

void DefectEditor::flip(const std::vector<int32_t>& cores)
{
    for (int32_t i : cores)
        m_defects.toggle(i);
}

void DefectEditor::record(Command command)
{
    if (command.flipped.empty())
        return;
    m_undo.push_back(std::move(command));
    if (int(m_undo.size()) > kMaxHistory)
        m_undo.pop_front();
    m_redo.clear();
    remapNow();
}

Status DefectEditor::setCores(const std::vector<PhysicalCore>& cores, bool dead)
{
    for (const PhysicalCore& c : cores) {
        if (!m_defects.contains(c.x, c.y))
            return makeError(ErrorCode::OutOfRange,
                             "core (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                                 ") is outside the physical mesh",
                             "cores");
    }
    Command cmd{DefectEdit::SetCores, {}};
    for (const PhysicalCore& c : cores) {
        const int32_t i = c.y * m_defects.cols() + c.x;
        if (m_defects.isDead(i) != dead) {
            m_defects.setDead(i, dead);
            cmd.flipped.push_back(i);
        }
    }
    record(std::move(cmd));
    return Ok{};
}

Status DefectEditor::setRect(PhysicalRect rect, bool dead)
{
    std::vector<PhysicalCore> cores;
    const int x0 = std::max(rect.x, 0);
    const int y0 = std::max(rect.y, 0);
    const int x1 = std::min(rect.x + std::max(rect.width, 0), m_defects.cols());
    const int y1 = std::min(rect.y + std::max(rect.height, 0), m_defects.rows());
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            cores.push_back({x, y});
    return setCores(cores, dead);
}

Status DefectEditor::unite(DefectEdit kind, Expected<DefectMap> drawn)
{
    if (!drawn)
        return drawn.error();
    record(Command{kind, m_defects.unite(*drawn)});
    return Ok{};
}

Status DefectEditor::injectRandom(double rate, uint64_t seed)
{
    return unite(DefectEdit::Random, DefectMap::random(m_layout, rate, seed));
}

Status DefectEditor::injectPoisson(double defectsPerMm2, uint64_t seed)
{
    return unite(DefectEdit::Poisson, DefectMap::poisson(m_layout, defectsPerMm2, seed));
}

Status DefectEditor::injectClustered(double defectsPerMm2, double alpha, ClusterScope scope, uint64_t seed)
{
    return unite(DefectEdit::Clustered, DefectMap::clustered(m_layout, defectsPerMm2, alpha, scope, seed));
}

Status DefectEditor::killDie(int dieX, int dieY)
{
    return unite(DefectEdit::Die, DefectMap::die(m_layout, dieX, dieY));
}

Status DefectEditor::clear()
{
    Command cmd{DefectEdit::Clear, m_defects.deadIndices()};
    m_defects.clear();
    record(std::move(cmd));
    return Ok{};
}

bool DefectEditor::undo()
{
    if (m_undo.empty())
        return false;
    Command cmd = std::move(m_undo.back());
    m_undo.pop_back();
    flip(cmd.flipped);
    m_redo.push_back(std::move(cmd));
    remapNow();
    return true;
}

bool DefectEditor::redo()
{
    if (m_redo.empty())
        return false;
    Command cmd = std::move(m_redo.back());
    m_redo.pop_back();
    flip(cmd.flipped);
    m_undo.push_back(std::move(cmd));
    remapNow();
    return true;
}

} // namespace ws
