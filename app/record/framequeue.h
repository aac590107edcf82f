#pragma once
// A small bounded queue of frames between the GUI thread (producer) and the
// encoding thread (consumer). close() wakes a waiting consumer for good.

#include <QImage>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

namespace ws {

class FrameQueue
{
public:
    explicit FrameQueue(size_t capacity) : m_capacity(capacity) {}

    bool hasRoom() const
    {
        std::lock_guard lock(m_mutex);
        return m_frames.size() < m_capacity;
    }

    void push(QImage frame)
    {
        {
            std::lock_guard lock(m_mutex);
            m_frames.push_back(std::move(frame));
        }
        m_ready.notify_one();
    }

    // Blocks until a frame arrives; nullopt once the queue is closed.
    std::optional<QImage> pop()
    {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return m_closed || !m_frames.empty(); });
        if (m_closed)
            return std::nullopt;
        QImage frame = std::move(m_frames.front());
        m_frames.pop_front();
        return frame;
    }

    void close()
    {
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
            m_frames.clear();
        }
        m_ready.notify_all();
    }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<QImage> m_frames;
    size_t m_capacity;
    bool m_closed = false;
};

} // namespace ws
