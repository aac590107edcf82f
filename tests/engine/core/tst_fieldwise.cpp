// engine/core/fieldwise.h and sumof.h: statistics that add and subtract field by field (numbers, arrays of
// numbers, nested statistics), and sums of one member or value per element.
#include "engine/core/fieldwise.h"
#include "engine/core/sumof.h"

#include <QTest>

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

// The operators are found by argument-dependent lookup for the engine's types (namespace ws); these test types
// are not in it.
using ws::operator+=;
using ws::operator-=;
using ws::sumOf;

namespace {

struct Inner
{
    double busy = 0;
    int64_t count = 0;
    static constexpr auto fields() { return std::tuple{&Inner::busy, &Inner::count}; }
};

struct Outer
{
    std::array<Inner, 2> byKind{};
    std::array<int, 3> bins{};
    double total = 0;
    double notSummed = 0; // left out of fields(): += leaves it alone
    static constexpr auto fields() { return std::tuple{&Outer::byKind, &Outer::bins, &Outer::total}; }
};

struct Phase
{
    Inner traffic;
    double cycles = 0;
    double twice() const { return 2 * cycles; }
};

} // namespace

class TestFieldWise : public QObject
{
    Q_OBJECT

private slots:
    void addsAndSubtractsEveryListedField()
    {
        Outer a;
        a.byKind[0] = {1.5, 2};
        a.byKind[1] = {0.25, 7};
        a.bins = {1, 2, 3};
        a.total = 10;
        a.notSummed = 4;
        Outer b;
        b.byKind[0] = {2.0, 3};
        b.byKind[1] = {1.0, -2};
        b.bins = {10, 20, 30};
        b.total = 5;
        b.notSummed = 100;
        Outer sum = a;
        sum += b;
        QCOMPARE(sum.byKind[0].busy, 3.5);
        QCOMPARE(sum.byKind[0].count, int64_t(5));
        QCOMPARE(sum.byKind[1].busy, 1.25);
        QCOMPARE(sum.byKind[1].count, int64_t(5));
        QCOMPARE(sum.bins, (std::array<int, 3>{11, 22, 33}));
        QCOMPARE(sum.total, 15.0);
        QCOMPARE(sum.notSummed, 4.0);
        sum -= b; // back to a, field by field
        QCOMPARE(sum.byKind[0].busy, a.byKind[0].busy);
        QCOMPARE(sum.byKind[1].count, a.byKind[1].count);
        QCOMPARE(sum.bins, a.bins);
        QCOMPARE(sum.total, a.total);
        Outer& self = (sum += b);
        QCOMPARE(&self, &sum); // returns the left side, as += does
    }

    void sumsOneValuePerElement()
    {
        const std::vector<Phase> phases = {{{1, 2}, 10}, {{0.5, 3}, 20}, {{2, -1}, 30}};
        const Inner traffic = sumOf(phases, &Phase::traffic); // field-wise statistics sum as numbers do
        QCOMPARE(traffic.busy, 3.5);
        QCOMPARE(traffic.count, int64_t(4));
        QCOMPARE(sumOf(phases, &Phase::cycles), 60.0);
        QCOMPARE(sumOf(phases, &Phase::twice), 120.0); // a member function
        const std::vector<std::string> words = {"a", "bcd", ""};
        QCOMPARE(sumOf(words, [](const std::string& w) { return w.size(); }), size_t(4));
        QCOMPARE(sumOf(std::vector<Phase>{}, &Phase::cycles), 0.0); // empty: value-initialised
    }
};

QTEST_GUILESS_MAIN(TestFieldWise)
#include "tst_fieldwise.moc"
