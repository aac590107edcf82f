#pragma once
// The preset library: every hardware and model preset the app and the CLI
// know, by id. Built-in presets are the engine's embedded copy of
// resources/presets/{hardware,models}/*.json (engine/calibration/measurementdata.h:
// embeddedPresetFiles()); user presets from <AppDataLocation>/presets/{hardware,models}
// override a built-in preset with the same id. Parsing and validation are the
// engine's (parseHardwarePreset, parseModelPreset); a file that fails to load
// is skipped and its error kept in loadErrors(), so one bad user file never
// hides the others.

#include "engine/core/error.h"
#include "engine/hardware/hardwarespec.h"
#include "engine/model/modelconfig.h"

#include <QString>
#include <QStringList>

#include <map>
#include <string_view>

namespace ws {

class PresetLibrary
{
public:
    // Loads built-in presets and, when userDir is not empty, the user presets under it.
    explicit PresetLibrary(const QString& userDir = defaultUserDir());

    static QString defaultUserDir(); // QStandardPaths::AppDataLocation + "/presets"

    QStringList hardwareIds() const; // sorted
    QStringList modelIds() const;    // sorted

    Expected<HardwareSpec> hardware(const QString& id) const;
    Expected<ModelConfig> model(const QString& id) const;

    // A preset id, or a path to a model file (contains '/' or ends in .json/.gguf):
    // a model preset (.json with "kind": "model"), a Hugging Face config.json, or
    // a GGUF file (header only).
    Expected<ModelConfig> resolveModel(const QString& idOrPath) const;

    // "file: message" for each preset file that failed to load.
    QStringList loadErrors() const { return m_errors; }

private:
    void loadDir(const QString& dir, bool hardware, bool user);
    // Parses one preset file's text (`path` names it in errors) and adds it.
    void add(std::string_view text, const QString& path, bool hardware, bool user);

    std::map<QString, HardwareSpec> m_hardware;
    std::map<QString, ModelConfig> m_models;
    QStringList m_errors;
};

} // namespace ws
