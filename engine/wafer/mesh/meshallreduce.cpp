#include "engine/wafer/mesh/meshallreduce.h"

#include "engine/wafer/dataflow/timingmodel.h"

#include <algorithm>
#include <cstdint>
#include <queue>

namespace ws {

namespace {

struct LineState
{
    std::vector<int> parent; // -1: the root
    std::vector<int> pending;
    std::vector<Ready> depart;
    std::vector<Ready> allIn;
    int root = 0;
};

struct Step
{
    double time = 0;
    int64_t seq = 0;
    int line = 0;
    int node = 0;
    int dir = 0; // 0: pass the running sum to the parent; -1 / +1: multicast the sum onwards
    Ready at;    // multicast: when the head left this node
    bool operator>(const Step& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

LineState buildTree(int n)
{
    LineState s;
    s.parent.assign(size_t(n), -1);
    s.pending.assign(size_t(n), 0);
    const int g = TimingModel::groupSizeFor(n);
    const int groups = (n + g - 1) / g;
    std::vector<int> roots;
    for (int k = 0; k < groups; ++k) {
        const int b = k * g, e = std::min(n, b + g), mid = b + (e - b) / 2;
        for (int i = b; i < mid; ++i)
            s.parent[size_t(i)] = i + 1;
        for (int i = e - 1; i > mid; --i)
            s.parent[size_t(i)] = i - 1;
        roots.push_back(mid);
    }
    const int m = groups / 2;
    for (int k = 0; k < m; ++k)
        s.parent[size_t(roots[size_t(k)])] = roots[size_t(k + 1)];
    for (int k = groups - 1; k > m; --k)
        s.parent[size_t(roots[size_t(k)])] = roots[size_t(k - 1)];
    s.root = roots[size_t(m)];
    for (int i = 0; i < n; ++i)
        if (s.parent[size_t(i)] >= 0)
            ++s.pending[size_t(s.parent[size_t(i)])];
    return s;
}

} // namespace

void allreduceLines(MeshFabric& fabric, std::vector<Ready>& ready, const std::vector<ReduceLine>& lines)
{
    const double beta = fabric.params().routingStageCycles;
    std::vector<LineState> states(lines.size());
    std::priority_queue<Step, std::vector<Step>, std::greater<Step>> queue;
    int64_t seq = 0;
    // The root streams the sum out as it completes it (cut-through): its multicast leaves when the heads of its
    // inputs are in; each core's copy is whole when the multicast's tail has passed it.
    auto startBroadcast = [&](int l) {
        LineState& s = states[size_t(l)];
        const int c = lines[size_t(l)].cores[size_t(s.root)];
        const Ready out = s.depart[size_t(s.root)];
        const Ready sum = s.allIn[size_t(s.root)];
        fabric.wait(c, sum.time);
        ready[size_t(c)] = sum;
        queue.push({out.time, seq++, l, s.root, -1, out});
        queue.push({out.time, seq++, l, s.root, +1, out});
    };
    for (size_t l = 0; l < lines.size(); ++l) {
        const ReduceLine& line = lines[l];
        const int n = int(line.cores.size());
        if (n <= 1 || line.words <= 0)
            continue;
        LineState& s = states[l] = buildTree(n);
        s.depart.resize(size_t(n));
        s.allIn.resize(size_t(n));
        for (int i = 0; i < n; ++i)
            s.depart[size_t(i)] = s.allIn[size_t(i)] = ready[size_t(line.cores[size_t(i)])];
        for (int i = 0; i < n; ++i)
            if (s.pending[size_t(i)] == 0 && s.parent[size_t(i)] >= 0)
                queue.push({s.depart[size_t(i)].time, seq++, int(l), i, 0, {}});
    }
    while (!queue.empty()) {
        const Step step = queue.top();
        queue.pop();
        const ReduceLine& line = lines[size_t(step.line)];
        LineState& s = states[size_t(step.line)];
        const double words = line.words;
        if (step.dir == 0) {
            const int i = step.node, j = s.parent[size_t(i)];
            const int to = line.cores[size_t(j)];
            const MeshFabric::Delivery d = fabric.send(line.cores[size_t(i)], to, words, s.depart[size_t(i)]);
            fabric.receive(to, d.head.time, d.tail.time);
            s.depart[size_t(j)] = later(s.depart[size_t(j)], {d.head.time + beta, d.head.event});
            s.depart[size_t(j)] = later(s.depart[size_t(j)], {d.tail.time + beta - words, d.tail.event});
            s.allIn[size_t(j)] = later(s.allIn[size_t(j)], d.tail);
            if (--s.pending[size_t(j)] == 0) {
                if (j == s.root)
                    startBroadcast(step.line);
                else
                    queue.push({s.depart[size_t(j)].time, seq++, step.line, j, 0, {}});
            }
            continue;
        }
        const int next = step.node + step.dir;
        if (next < 0 || next >= int(line.cores.size()))
            continue;
        const int to = line.cores[size_t(next)];
        const MeshFabric::Delivery d =
            fabric.send(line.cores[size_t(step.node)], to, words, step.at, MeshEventKind::Multicast);
        fabric.wait(to, d.tail.time);
        ready[size_t(to)] = d.tail;
        queue.push({d.head.time, seq++, step.line, next, step.dir, d.head});
    }
}

} // namespace ws
