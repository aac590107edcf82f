# User-interface translations. `cmake --build build --target update_translations`
# runs lupdate over views/ and app/ (the strings in tr() calls) and refreshes
# the .ts files; lrelease turns them into .qm files embedded in waferscope_app
# under ":/i18n" (loaded by app/common/languagemanager.cpp).
file(GLOB_RECURSE WS_TR_SOURCES CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/views/*.cpp ${PROJECT_SOURCE_DIR}/views/*.h
    ${PROJECT_SOURCE_DIR}/app/*.cpp ${PROJECT_SOURCE_DIR}/app/*.h)
qt_add_translations(waferscope_app
    TS_FILES ${PROJECT_SOURCE_DIR}/translations/waferscope_zh_CN.ts
    RESOURCE_PREFIX /i18n
    SOURCES ${WS_TR_SOURCES}
    INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}
    LUPDATE_OPTIONS -no-obsolete -locations none)
