#pragma once
// One lane of the race: a system's name, predicted speed and first token, the token stream
// revealed so far, a live tokens/s counter and a progress track with a marker
// where a human reader would be. TokenRace decides how many tokens each lane
// shows; the lane only draws.

#include <QColor>
#include <QWidget>

#include <vector>

class QLabel;
class QPlainTextEdit;

namespace ws::views {

class RaceTrack;

class RaceLane : public QWidget
{
    Q_OBJECT

public:
    explicit RaceLane(QWidget* parent = nullptr);

    // firstTokenSeconds: the predicted time to first token, shown beside the speed (0: not shown).
    void setSystem(const QString& label, const QColor& color, double predictedTokensPerSecond, const QString& tooltip,
                   double firstTokenSeconds = 0);
    // Shows the first `revealed` of `pieces`; appends only what is new when the text grows.
    void show(const QStringList& pieces, int revealed, int total, double elapsedSeconds, double tokensPerSecondNow);
    // Where a reader is (0..1 of the track), or < 0 for no marker.
    void setReaderFraction(double fraction);
    // Published figures for this system: their speeds go in the header, their tooltips (sources) on the track.
    void setMarks(const std::vector<double>& tokensPerSecond, const QStringList& tooltips);
    // Where a system at each published pace would be now (0..1 of the track): a diamond on the track.
    void setMarkFractions(const std::vector<double>& fractions);

    int revealed() const { return m_revealed; }
    QString text() const;
    QString counterText() const;
    double progress() const;
    double readerFraction() const;
    const std::vector<double>& markFractions() const;
    QString headerText() const;
    QString headerToolTip() const;
    // The revealed text as laid out (tests check where its lines break).
    const QPlainTextEdit* textView() const { return m_text; }
    QString trackToolTip() const;

private:
    int m_revealed = 0;
    QLabel* m_header = nullptr;
    QString m_headerBase; // name and predicted speed
    QString m_headerTip;  // where the predicted speed comes from
    QPlainTextEdit* m_text = nullptr;
    QLabel* m_counter = nullptr;
    RaceTrack* m_track = nullptr;
};

} // namespace ws::views
