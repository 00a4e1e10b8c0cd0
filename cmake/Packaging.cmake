# Installing and packaging (included at the end of the top-level CMakeLists.txt).
#
# `cmake --install build/release --prefix PREFIX` puts, under PREFIX:
#   bin/occupancy-explorer, bin/occx                      the GUI and the CLI
#   libexec/occupancy-explorer/occx-gpu-worker            CUDA builds only; gpuWorkerProgram()
#                                                         (core/sweep/worker_runner.cpp) looks there
#   share/applications/<id>.desktop                       the menu entry (<id>: OCCX_APP_ID)
#   share/icons/hicolor/scalable/apps/<id>.svg            its icon
#   share/metainfo/<id>.metainfo.xml                      the AppStream description
# Everything else the programs read (GPU data, bundled datasets and runs, the icon for the window)
# is compiled into them. `cpack -G DEB` in the build folder makes a Debian package of the same files.
include(GNUInstallDirs)

install(TARGETS occx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET occx-gpu-worker)
  if(NOT CMAKE_INSTALL_LIBEXECDIR STREQUAL "libexec")
    message(WARNING "CMAKE_INSTALL_LIBEXECDIR is ${CMAKE_INSTALL_LIBEXECDIR}: the installed occx and GUI look "
                    "for the GPU worker in <prefix>/libexec/occupancy-explorer (or set OCCX_GPU_WORKER)")
  endif()
  install(TARGETS occx-gpu-worker RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/occupancy-explorer)
endif()
if(TARGET occupancy-explorer)
  install(TARGETS occupancy-explorer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(desktop_dir ${PROJECT_SOURCE_DIR}/resources/desktop)
  install(FILES ${desktop_dir}/${OCCX_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${desktop_dir}/${OCCX_APP_ID}.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES ${desktop_dir}/${OCCX_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
endif()

# Run-time search path: the build tree's RPATH is dropped on install. Qt, QCustomPlot and the C++
# runtime come from the system's library folders, which need none. A CUDA build links NVRTC from
# the toolkit's folder (often not known to the dynamic linker), so its installed programs keep the
# link-time folders that lie outside the system's ones: the toolkit's library folder, nothing else.
foreach(target occx occx-gpu-worker occupancy-explorer)
  if(TARGET ${target} AND TARGET occx_cuda)
    set_target_properties(${target} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  endif()
endforeach()

# The Debian package: its Depends are Debian package names, found by dpkg-shlibdeps from the
# libraries the programs link, plus what Qt loads as plugins (the SVG icon engine for the window
# icon). scripts/check-install.sh checks the control file.
set(OCCX_PACKAGE_MAINTAINER "Occupancy Explorer maintainers <maintainers@occupancy-explorer.invalid>"
    CACHE STRING "Maintainer field of the Debian package (name <email>)")
set(CPACK_PACKAGE_NAME occupancy-explorer)
set(CPACK_PACKAGE_VENDOR "Occupancy Explorer")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${OCCX_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "why a GPU kernel configuration is fast or slow (occupancy)")
set(CPACK_PACKAGE_DESCRIPTION
    "A desktop application and a command-line tool (occx) that show why a GPU kernel configuration\n"
    "is fast or slow in terms of occupancy: the CUDA occupancy calculator for every compute\n"
    "capability 5.0 to 12.1 with every step of the arithmetic, PyTorch Inductor's RBLOCK-scaling\n"
    "decision under the old, new and exact bounds, your own Inductor kernels read from what\n"
    "torch.compile left on disk, and bundled data measured on an NVIDIA H200.")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "")
if(TARGET occupancy-explorer)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6")
endif()
if(TARGET occx_cuda)
  message(STATUS "Debian package: this build links NVRTC from the CUDA Toolkit, which no Debian package "
                 "provides, so its .deb needs the toolkit installed; configure with -DOCCX_ENABLE_CUDA=OFF "
                 "for a package that runs anywhere")
endif()
include(CPack)
