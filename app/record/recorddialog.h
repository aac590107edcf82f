#pragma once
// The "Record" dialog: output format, frame size, frame rate, length and
// whether the chat pane is recorded beside the heatmap.

#include "app/record/videosettings.h"

#include <QDialog>
#include <QImage>

#include <functional>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace ws {

struct RecordOptions
{
    VideoSettings video;
    int durationSeconds = 10;
    bool includeChat = false;
    int frameCount() const { return video.fps * durationSeconds; }
};

// What a recording draws: frame `frameIndex` of a recording made with `options`.
using RecordFrameSource = std::function<QImage(int frameIndex, const RecordOptions& options)>;

class RecordDialog : public QDialog
{
    Q_OBJECT

public:
    explicit RecordDialog(QWidget* parent = nullptr);

    void setOptions(const RecordOptions& options);
    RecordOptions options() const;

private:
    QComboBox* m_format;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_fps;
    QSpinBox* m_duration;
    QCheckBox* m_includeChat;
};

} // namespace ws
