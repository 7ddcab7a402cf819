# `make wheel` (scripts/make_wheel.sh): scikit-build-core configures this project with the
# environment variable TACO_WHEEL_FROM_BUILD=<a build tree that `make` has built>, and this
# file replaces the whole project: it compiles nothing and installs into the wheel
#   taco_cpp/_native.<abi>.so   the extension module of that build tree, as built
#   taco_cpp/_data/proj/        proj.db (+ proj.ini) of the PROJ the module was linked with
#   taco_cpp/_data/gdal/        GDAL's data files (GDAL_DATA)
# The Python sources come from pyproject.toml (wheel.packages). The module still points at
# the build machine's libduckdb and GDAL; `auditwheel repair` then copies those libraries and
# their dependencies into the wheel (taco_cpp.libs/) and rewrites the RPATHs.
# taco_cpp/__init__.py sets PROJ_DATA and GDAL_DATA to _data/ (unless the user set them), so
# the bundled libproj reads the proj.db of its own version, not whatever the host has.
set(TACO_WHEEL_TREE "$ENV{TACO_WHEEL_FROM_BUILD}")
if(NOT IS_DIRECTORY "${TACO_WHEEL_TREE}/python/taco_cpp")
  message(FATAL_ERROR "TACO_WHEEL_FROM_BUILD=${TACO_WHEEL_TREE}: no python/taco_cpp in it (run `make` first)")
endif()

# The module of the build tree must be the one for the interpreter that builds the wheel:
# scikit-build-core tags the wheel after that interpreter (SKBUILD_SOABI).
set(TACO_WHEEL_MODULE "${TACO_WHEEL_TREE}/python/taco_cpp/_native.${SKBUILD_SOABI}${CMAKE_SHARED_MODULE_SUFFIX}")
if(NOT EXISTS "${TACO_WHEEL_MODULE}")
  file(GLOB found "${TACO_WHEEL_TREE}/python/taco_cpp/_native*")
  message(FATAL_ERROR "${TACO_WHEEL_MODULE} is missing (the build tree has: ${found}); "
                      "build the tree with the interpreter that runs `make wheel`")
endif()
install(PROGRAMS "${TACO_WHEEL_MODULE}" DESTINATION taco_cpp)

find_program(TACO_PKG_CONFIG pkg-config REQUIRED)
find_program(TACO_GDAL_CONFIG gdal-config REQUIRED)
execute_process(COMMAND "${TACO_PKG_CONFIG}" --variable=datadir proj
                OUTPUT_VARIABLE TACO_PROJ_DATA OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND "${TACO_GDAL_CONFIG}" --datadir
                OUTPUT_VARIABLE TACO_GDAL_DATA OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
foreach(required "${TACO_PROJ_DATA}/proj.db" "${TACO_GDAL_DATA}/gdalvrt.xsd")
  if(NOT EXISTS "${required}")
    message(FATAL_ERROR "${required} is missing: the wheel needs PROJ's and GDAL's data files")
  endif()
endforeach()
# Only proj.db and proj.ini: the grid files (.gsb, .tif) are optional downloads of PROJ.
install(FILES "${TACO_PROJ_DATA}/proj.db" DESTINATION taco_cpp/_data/proj)
if(EXISTS "${TACO_PROJ_DATA}/proj.ini")
  install(FILES "${TACO_PROJ_DATA}/proj.ini" DESTINATION taco_cpp/_data/proj)
endif()
install(DIRECTORY "${TACO_GDAL_DATA}/" DESTINATION taco_cpp/_data/gdal)
