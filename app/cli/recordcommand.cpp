// waferscope-cli record: renders the per-token dataflow animation of a
// scenario (optionally with a chat panel streaming a real model's answer)
// and encodes it to MP4 (H.264), WebM (VP9) or GIF, after a title card (what
// it shows, on what, made by which build on which day). The program's main
// gives it the window's dark theme.
#include "app/cli/cliutil.h"
#include "app/cli/commands.h"
#include "app/cli/scenariooptions.h"
#include "app/common/languagemanager.h"
#include "app/common/presetlibrary.h"
#include "app/export/exportstamp.h"
#include "app/present/tourformat.h"
#include "app/record/chatscript.h"
#include "app/record/framecomposer.h"
#include "app/record/recorder.h"
#include "app/record/titlecard.h"
#include "app/scenario/scenarioformat.h"
#include "app/scenario/scenarioprediction.h"
#include "app/scenario/scenarioscene.h"

#include <QApplication>
#include <QFileInfo>
#include <QJsonObject>
#include <QLocale>

#include <cmath>

namespace ws::cli {

namespace {

QString formatSeconds(double seconds)
{
    if (seconds < 1e-3)
        return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', 1);
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', 2);
    return QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
}

// "Llama 3.1 70B on {devices} × WSE-3" for a tour's first open step (a scenario file by its name); the recorder
// fills {devices} once the step has placed the model.
QString tourSubtitle(const Tour& tour)
{
    const PresetLibrary presets;
    for (const TourStep& step : tour.steps) {
        if (step.kind != TourStepKind::Open)
            continue;
        if (!step.scenarioPath.isEmpty())
            return QFileInfo(step.scenarioPath).completeBaseName();
        const auto model = presets.model(step.model);
        const auto hardware = presets.hardware(step.hardware);
        return QStringLiteral("%1 on {devices} × %2")
            .arg(model ? QString::fromStdString(model->name) : step.model,
                 hardware ? QString::fromStdString(hardware->name) : step.hardware);
    }
    return {};
}

// record --tour: the tour played in the real window, one frame per 1 / fps seconds of tour time.
int recordTour(const QCommandLineParser& parser, const TourWindowFactory& makeWindow, const QString& out,
               VideoFormat format, int fps, QSize size, double titleSeconds)
{
    const QString tourPath = parser.value(QStringLiteral("tour"));
    QString error;
    const auto tour = TourFormat::load(tourPath, &error);
    if (!tour)
        return fail(error);
    const QString language =
        parser.isSet(QStringLiteral("lang")) ? parser.value(QStringLiteral("lang")) : QStringLiteral("en");
    if (!LanguageManager::availableLanguages().contains(language))
        return fail(QStringLiteral("--lang must be one of %1, got '%2'")
                        .arg(LanguageManager::availableLanguages().join(QStringLiteral(", ")), language));
    if (!makeWindow)
        return fail(QStringLiteral("--tour needs the window, which this program cannot make"));
    const QString formatName = videoFormatName(format); // before the window installs the tour's language
    const TourWindow window = makeWindow(language);
    const VideoSettings settings{format, size, fps, ExportStamp::forScenario(QJsonObject{{"tour", tourPath}}).text()};
    const TitleCardText title{tour->title, tourSubtitle(*tour), TitleCard::stampLine(ExportStamp().generator)};
    const auto recording =
        TourRecorder::record(window, tourPath, out, settings, &error, title, TitleCard::frameCount(titleSeconds, fps));
    if (!recording)
        return fail(error);
    if (parser.isSet(QStringLiteral("json")))
        printJson(QJsonObject{{"out", out},
                              {"frames", recording->frames},
                              {"title_frames", recording->titleFrames},
                              {"fps", fps},
                              {"tour_seconds", recording->seconds},
                              {"width", encodedFrameSize(settings).width()},
                              {"height", encodedFrameSize(settings).height()},
                              {"format", formatName},
                              {"tour", tourPath}});
    return kExitOk;
}

} // namespace

int runRecord(const QStringList& args, const TourWindowFactory& tourWindow)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Record the per-token dataflow animation to MP4, WebM or GIF."));
    addScenarioOptions(parser);
    parser.addOption({QStringLiteral("model-file"), QStringLiteral("GGUF model that writes the chat answer."),
                      QStringLiteral("gguf")});
    parser.addOption({QStringLiteral("prompt"), QStringLiteral("Chat prompt."), QStringLiteral("text")});
    parser.addOption({QStringLiteral("tokens"), QStringLiteral("Tokens to animate (default 4)."), QStringLiteral("n")});
    parser.addOption({QStringLiteral("fps"), QStringLiteral("Frames per second (default 30)."), QStringLiteral("f")});
    parser.addOption({QStringLiteral("seconds-per-token"),
                      QStringLiteral("Video seconds each token's dataflow takes (default 1)."), QStringLiteral("s")});
    parser.addOption({QStringLiteral("width"), QStringLiteral("Frame width (default 1280)."), QStringLiteral("w")});
    parser.addOption({QStringLiteral("height"), QStringLiteral("Frame height (default 720)."), QStringLiteral("h")});
    parser.addOption(
        {QStringLiteral("layer"), QStringLiteral("Heatmap layer (default dataflow)."), QStringLiteral("layer")});
    parser.addOption({QStringLiteral("chat"), QStringLiteral("Show the chat panel (default with --model-file).")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Output: .mp4, .webm or .gif."), QStringLiteral("file")});
    parser.addOption({QStringLiteral("tour"),
                      QStringLiteral("Record this tour (presentation mode) instead of a scenario."),
                      QStringLiteral("tour.json")});
    parser.addOption({QStringLiteral("lang"), QStringLiteral("Interface language of a tour's captions: en or zh_CN."),
                      QStringLiteral("code")});
    parser.addOption({QStringLiteral("title-seconds"),
                      QStringLiteral("Seconds of the title card the video opens with (default 2; 0: none)."),
                      QStringLiteral("s")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print what was written as JSON.")});
    parser.addHelpOption();
    if (!parseArgs(parser, QStringLiteral("record"), args))
        return kExitBadInput;

    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty())
        return fail(QStringLiteral("--out FILE.mp4|FILE.webm|FILE.gif is required"));
    const auto format = videoFormatFromPath(out);
    if (!format)
        return fail(QStringLiteral("--out must end in .mp4, .webm or .gif, got '%1'").arg(out));
    const auto tokens = intOption(parser, QStringLiteral("tokens"), 4, 1, 4096);
    const auto fps = tokens ? intOption(parser, QStringLiteral("fps"), 30, kMinVideoFps, kMaxVideoFps) : std::nullopt;
    const auto secondsPerToken =
        fps ? doubleOption(parser, QStringLiteral("seconds-per-token"), 1.0, 0.01, 60.0) : std::nullopt;
    const auto width =
        secondsPerToken ? intOption(parser, QStringLiteral("width"), 1280, kMinVideoSide, kMaxVideoSide) : std::nullopt;
    const auto height =
        width ? intOption(parser, QStringLiteral("height"), 720, kMinVideoSide, kMaxVideoSide) : std::nullopt;
    const auto titleSeconds = height ? doubleOption(parser, QStringLiteral("title-seconds"), TitleCard::kDefaultSeconds,
                                                    0.0, TitleCard::kMaxSeconds)
                                     : std::nullopt;
    if (!titleSeconds)
        return kExitBadInput;
    if (parser.isSet(QStringLiteral("tour")))
        return recordTour(parser, tourWindow, out, *format, int(*fps), QSize(int(*width), int(*height)), *titleSeconds);
    const int tokenFrames = int(std::lround(double(*tokens) * double(*fps) * *secondsPerToken));
    const int titleFrames = TitleCard::frameCount(*titleSeconds, int(*fps));
    const int frameCount = titleFrames + tokenFrames;
    if (tokenFrames < 1)
        return fail(QStringLiteral("--tokens x --fps x --seconds-per-token gives no frame"));
    if (frameCount > 100000)
        return fail(QStringLiteral("%1 frames is more than the 100000 a recording may have").arg(frameCount));

    QString error;
    auto loaded = scenarioFromOptions(parser, &error);
    if (!loaded)
        return fail(error);
    Scenario& scenario = loaded->scenario;
    const QString layerId =
        parser.isSet(QStringLiteral("layer")) ? parser.value(QStringLiteral("layer")) : QStringLiteral("dataflow");
    const auto layer = meshLayerFromId(layerId.toStdString());
    if (!layer || *layer == MeshLayer::Links || *layer == MeshLayer::Values)
        return fail(QStringLiteral("--layer must be sram, placement, kv, dataflow or defects, got '%1'").arg(layerId));
    if (parser.isSet(QStringLiteral("prompt")))
        scenario.prompt = parser.value(QStringLiteral("prompt"));

    const PresetLibrary presets;
    // The time per token the captions state is the engine's prediction for the scenario, as `predict`, the window
    // and the tours give it; the frames play the scene's timetable (its closed forms' phases), stretched to
    // --seconds-per-token.
    const auto predicted = predictScenario(scenario, presets, loaded->baseDir, &error, true);
    if (!predicted)
        return fail(error);
    const ScenarioScene* scene = &predicted->scene;
    const Prediction& prediction = predicted->prediction;
    const TokenSchedule& schedule = *scene->timing->schedule;
    const int device = std::clamp(scenario.viewDevice, 0, std::max(0, scene->snapshot->deviceCount - 1));

    // The chat answer is real: generated up front on this CPU by the model file, streamed in step with the tokens.
    std::optional<ChatScript> chatScript;
    if (parser.isSet(QStringLiteral("model-file"))) {
        chatScript =
            ChatScript::generate(parser.value(QStringLiteral("model-file")), scenario.prompt, int(*tokens), &error);
        if (!chatScript)
            return fail(error);
    }
    const bool withChat = parser.isSet(QStringLiteral("chat")) || chatScript.has_value();
    FrameComposer composer(QSize(int(*width), int(*height)), withChat);
    composer.setViewState(scenario.zoom, scenario.center);
    const QString modelName = QString::fromStdString(scene->model().name);
    const QString hardwareName = QString::fromStdString(scene->hardware().name);
    const double tokenSeconds = prediction.secondsPerToken;
    const QLocale locale;
    const QString subtitle =
        scene->snapshot->deviceCount > 1
            ? QStringLiteral("%1 on %2 × %3").arg(modelName).arg(scene->snapshot->deviceCount).arg(hardwareName)
            : QStringLiteral("%1 on %2").arg(modelName, hardwareName);
    const QString title = parser.isSet(QStringLiteral("scenario"))
                              ? QFileInfo(parser.value(QStringLiteral("scenario"))).completeBaseName()
                              : QStringLiteral("One token's dataflow on the wafer");
    const QImage card =
        TitleCard::draw(composer.frameSize(), {title, subtitle, TitleCard::stampLine(ExportStamp().generator)},
                        QApplication::palette());
    const auto provider = [&](int videoFrame) {
        if (videoFrame < titleFrames)
            return card;
        const int frame = videoFrame - titleFrames;
        const double videoSeconds = double(frame) / double(*fps);
        const double tokenPosition = videoSeconds / *secondsPerToken;
        const int token = std::min(int(tokenPosition), int(*tokens) - 1);
        const double fraction = std::min(tokenPosition - token, 1.0);
        const QString caption =
            QStringLiteral("%1 on %2 · token %3 of %4 · one token takes %5 on the wafer (%6 tokens/s), its dataflow "
                           "shown over %7 s · %8")
                .arg(modelName, hardwareName)
                .arg(token + 1)
                .arg(*tokens)
                .arg(formatSeconds(tokenSeconds), locale.toString(prediction.tokensPerSecondPerUser, 'f', 0))
                .arg(*secondsPerToken)
                .arg(FrameComposer::activePhases(schedule, fraction));
        ChatFrameText chat;
        chat.prompt = scenario.prompt;
        chat.stats = QStringLiteral("token %1 / %2").arg(token + 1).arg(*tokens);
        if (chatScript) {
            // Tokens out by the end of this frame: token k is out once its dataflow has run.
            const double endPosition = double(frame + 1) / double(*fps) / *secondsPerToken;
            chat.answer = chatScript->textAt(int(std::floor(endPosition + 1e-9)));
            chat.stats += QStringLiteral(" · text by %1 on this CPU (%2 tokens/s)")
                              .arg(chatScript->modelName, locale.toString(chatScript->cpuTokensPerSecond, 'f', 0));
        }
        return composer.compose(FrameComposer::tokenFrame(scene->snapshot, schedule, fraction, device), *layer, device,
                                caption, chat);
    };

    Recorder recorder;
    VideoSettings settings{*format, QSize(int(*width), int(*height)), int(*fps),
                           ExportStamp::forScenario(ScenarioFormat::toJson(scenario)).text()};
    if (!recorder.record(out, settings, frameCount, provider))
        return fail(recorder.errorString());
    if (parser.isSet(QStringLiteral("json")))
        printJson(QJsonObject{{"out", out},
                              {"frames", frameCount},
                              {"title_frames", titleFrames},
                              {"fps", int(*fps)},
                              {"width", encodedFrameSize(settings).width()},
                              {"height", encodedFrameSize(settings).height()},
                              {"format", videoFormatName(*format)},
                              {"tokens", int(*tokens)},
                              {"answer", chatScript ? chatScript->textAt(int(*tokens)) : QString()},
                              {"ms_per_token", prediction.secondsPerToken * 1e3},
                              {"tokens_per_second_per_user", prediction.tokensPerSecondPerUser},
                              {"timetable_token_seconds", schedule.seconds()},
                              {"model", QString::fromStdString(scene->model().id)},
                              {"hardware", QString::fromStdString(scene->hardware().id)}});
    return kExitOk;
}

} // namespace ws::cli
