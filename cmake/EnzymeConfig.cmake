# CMake package for pyenzyme: find_package(Enzyme CONFIG).
#
# Found through `enzyme --cmake-dir` (-DEnzyme_DIR=...) or, inside a scikit-build-core
# build that lists pyenzyme-llvm in build-system.requires, through its cmake.root entry point.
#
# Provides:
#   Enzyme::headers            INTERFACE target with the include dir of <enzyme/enzyme.h>
#   enzyme_add_differentiable  function: C/C++/Fortran/Rust/CUDA sources -> one differentiated
#                              target (see EnzymeAddDifferentiable.cmake)
#   Enzyme_INCLUDE_DIR         that include dir
#   Enzyme_FORTRAN_MODULE      enzyme.f90, the Fortran `enzyme` module (interfaces and markers)
#   Enzyme_RUST_CRATE_DIR      the `enzyme` Rust crate (Cargo.toml, src/enzyme.rs)
#   Enzyme_VERSION             the pyenzyme version
#
# Two layouts are supported, both relative to this file:
#   installed wheel:  <site-packages>/enzyme/cmake/   headers in ../include, ../fortran, ../rust
#   source checkout:  <repo>/cmake/                   headers in ../frontends/{include,fortran,rust}
#
# Policies, not cmake_minimum_required(): the latter would set the caller's
# CMAKE_MINIMUM_REQUIRED_VERSION (find_package gives this file its own policy scope only).
cmake_policy(VERSION 3.15...3.31)
list(APPEND CMAKE_MESSAGE_CONTEXT "Enzyme")

get_filename_component(_enzyme_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

if(EXISTS "${_enzyme_root}/include/enzyme/enzyme.h")
  set(Enzyme_INCLUDE_DIR "${_enzyme_root}/include")
  set(Enzyme_FORTRAN_MODULE "${_enzyme_root}/fortran/enzyme.f90")
  set(Enzyme_RUST_CRATE_DIR "${_enzyme_root}/rust/enzyme")
elseif(EXISTS "${_enzyme_root}/frontends/include/enzyme/enzyme.h")
  set(Enzyme_INCLUDE_DIR "${_enzyme_root}/frontends/include")
  set(Enzyme_FORTRAN_MODULE "${_enzyme_root}/frontends/fortran/enzyme.f90")
  set(Enzyme_RUST_CRATE_DIR "${_enzyme_root}/frontends/rust/enzyme")
else()
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE
      "enzyme/enzyme.h not found next to ${CMAKE_CURRENT_LIST_FILE}; reinstall pyenzyme")
  list(POP_BACK CMAKE_MESSAGE_CONTEXT)
  return()
endif()

# find_package sets Enzyme_VERSION from EnzymeConfigVersion.cmake, which only the
# installed layout has; a source checkout reads the single source of the version.
if(NOT Enzyme_VERSION AND EXISTS "${_enzyme_root}/enzyme/__init__.py")
  file(STRINGS "${_enzyme_root}/enzyme/__init__.py" _enzyme_version_line REGEX "^__version__ = ")
  string(REGEX REPLACE "^__version__ = \"([^\"]+)\".*$" "\\1" Enzyme_VERSION "${_enzyme_version_line}")
  unset(_enzyme_version_line)
endif()

if(NOT TARGET Enzyme::headers)
  add_library(Enzyme::headers INTERFACE IMPORTED)
  set_target_properties(Enzyme::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${Enzyme_INCLUDE_DIR}")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/EnzymeAddDifferentiable.cmake")

unset(_enzyme_root)
list(POP_BACK CMAKE_MESSAGE_CONTEXT)
