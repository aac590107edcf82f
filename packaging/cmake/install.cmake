# Install rules and the Debian package (cpack -G DEB). Included from the top
# CMakeLists.txt. Presets, measurements and translations are compiled into the
# programs (Qt resources and engine/calibration's embedded files), so only the
# programs, desktop integration and documentation are installed:
#   bin/waferscope, bin/waferscope-cli (and lib/waferscope/*.so in a shared-library build)
#   share/applications/<id>.desktop, share/metainfo/<id>.metainfo.xml, share/mime/packages/<id>.xml
#   share/icons/hicolor/{scalable,NxN}/apps/<id>.{svg,png}
#   share/man/man1/waferscope-cli.1.gz, share/doc/waferscope/{copyright,CHANGELOG.md,sources.md}
include(GNUInstallDirs)

set(WAFERSCOPE_APP_ID io.github.waferscope.WaferScope)
set(WAFERSCOPE_HOMEPAGE "https://github.com/waferscope/waferscope" CACHE STRING "The project's web address")
set(WAFERSCOPE_SCREENSHOTS "https://raw.githubusercontent.com/waferscope/waferscope/main/packaging/screenshots"
    CACHE STRING "Where the AppStream screenshots are published (the README's, packaging/screenshots)")
set(WAFERSCOPE_RELEASE_DATE "2026-12-01" CACHE STRING "Release date in the AppStream metainfo")
set(WS_PACKAGING ${PROJECT_SOURCE_DIR}/packaging)
set(WS_PACKAGING_OUT ${PROJECT_BINARY_DIR}/packaging)

configure_file(${WS_PACKAGING}/${WAFERSCOPE_APP_ID}.metainfo.xml.in
               ${WS_PACKAGING_OUT}/${WAFERSCOPE_APP_ID}.metainfo.xml @ONLY)

# The man page, from waferscope-cli's own help, whenever the program is relinked.
find_program(WS_GZIP gzip)
set(WS_MANPAGE ${WS_PACKAGING_OUT}/waferscope-cli.1)
add_custom_command(OUTPUT ${WS_MANPAGE}
    COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:waferscope-cli> -DOUT=${WS_MANPAGE} -DGZIP=${WS_GZIP}
            -P ${WS_PACKAGING}/cmake/manpage.cmake
    DEPENDS waferscope-cli ${WS_PACKAGING}/cmake/manpage.cmake
    COMMENT "Writing the waferscope-cli(1) man page"
    VERBATIM)
add_custom_target(waferscope_manpage ALL DEPENDS ${WS_MANPAGE})

install(TARGETS waferscope waferscope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# A shared-library build (WAFERSCOPE_SHARED_LIBS, the asan preset) installs its libraries privately, in
# lib/waferscope, where the programs and the libraries themselves find them relative to their own folder.
set(WS_PRIVATE_LIBDIR ${CMAKE_INSTALL_LIBDIR}/waferscope)
if(WAFERSCOPE_SHARED_LIBS)
    install(TARGETS waferscope_engine waferscope_readers waferscope_views waferscope_app
        LIBRARY DESTINATION ${WS_PRIVATE_LIBDIR})
    set_target_properties(waferscope waferscope-cli PROPERTIES INSTALL_RPATH "$ORIGIN/../${WS_PRIVATE_LIBDIR}")
    set_target_properties(waferscope_engine waferscope_readers waferscope_views waferscope_app
        PROPERTIES INSTALL_RPATH "$ORIGIN")
endif()
install(FILES ${WS_PACKAGING}/${WAFERSCOPE_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${WS_PACKAGING_OUT}/${WAFERSCOPE_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${WS_PACKAGING}/${WAFERSCOPE_APP_ID}.mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME ${WAFERSCOPE_APP_ID}.xml)
install(DIRECTORY ${WS_PACKAGING}/icons/hicolor DESTINATION ${CMAKE_INSTALL_DATADIR}/icons)
if(WS_GZIP)
    install(FILES ${WS_MANPAGE}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
    install(FILES ${WS_MANPAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${WS_PACKAGING}/copyright ${WS_PACKAGING}/CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/waferscope) # Debian: the package name
# The sources every citation in the code, the UI and the presets names by key ([WaferLLM-T4], ...).
install(FILES ${PROJECT_SOURCE_DIR}/docs/sources.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/waferscope)

# Debian package: depends computed by dpkg-shlibdeps from the programs' libraries.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME waferscope)
set(CPACK_PACKAGE_VENDOR "The WaferScope developers")
set(CPACK_PACKAGE_CONTACT "The WaferScope developers <waferscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "See how a language model runs on a wafer-scale engine")
set(CPACK_PACKAGE_DESCRIPTION
    "WaferScope places a transformer (Qwen3, Llama, Mistral, Gemma, mixture-of-experts models) on the core mesh of
a Cerebras-style wafer and shows what every core holds and does for each token: SRAM per core, weight
placement, per-token dataflow, a chat that streams real tokens from a real model, GPU and Groq comparisons
and defect remapping. waferscope-cli runs the same engine from scripts.")
set(CPACK_PACKAGE_HOMEPAGE_URL ${WAFERSCOPE_HOMEPAGE})
set(CPACK_RESOURCE_FILE_LICENSE ${WS_PACKAGING}/LICENSE)
set(CPACK_PACKAGE_FILE_NAME "waferscope_${PROJECT_VERSION}_amd64")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(WAFERSCOPE_SHARED_LIBS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/engine ${PROJECT_BINARY_DIR}/views
                                                   ${PROJECT_BINARY_DIR}/app)
endif()
# Qt's X11 and offscreen platform plugins ship in libqt6gui6, which shlibdeps finds; Wayland, Qt's own
# translations and a Chinese font are recommended.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, qt6-translations-l10n, fonts-wqy-microhei")
# gzip: quick to build in a test, and every dpkg reads it.
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
