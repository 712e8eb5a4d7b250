# enzyme_add_differentiable(): a CMake target whose sources are differentiated together.
#
#   enzyme_add_differentiable(<target> [STATIC|SHARED|MODULE|EXECUTABLE]
#                             [SOURCES] <src>...
#                             [LINK_LIBRARIES <lib>...]
#                             [COMPILE_OPTIONS <flag>...]
#                             [OPT_LEVEL 0|1|2|3]
#                             [ENZYME_OPTIONS <option>...])
#
# Every source (C .c, C++ .cpp/.cc/.cxx, Fortran .f90/.f/..., Rust .rs single-file crates,
# CUDA .cu, HIP .hip device code, LLVM .ll/.bc) becomes LLVM 22 bitcode through its own
# custom command (`enzyme bitcode`, with a depfile, so editing a header rebuilds only the
# sources that include it).  One more command (`enzyme build`) links all bitcode of the
# target into one module, differentiates every __enzyme_* request once -- so a request in
# C may differentiate Fortran and Rust code -- and emits one position-independent object.
# That object is the only source of an ordinary CMake target (add_library/add_executable),
# which can be linked, installed and exported like any other.
#
#   STATIC|SHARED|MODULE|EXECUTABLE  kind of target; none: add_library's default (BUILD_SHARED_LIBS).
#                    MODULE builds a Python extension (Python_add_library ... WITH_SOABI) when
#                    find_package(Python COMPONENTS Development.Module) ran before, else a plain
#                    add_library(MODULE).
#   LINK_LIBRARIES   linked PRIVATE; their usage requirements (include dirs, definitions) reach
#                    the bitcode compiles too.  OpenMP::OpenMP_C (CXX, Fortran) of find_package(OpenMP)
#                    also compiles the sources with -fopenmp (configure with clang as the C compiler,
#                    so that the target links LLVM's libomp, whose __kmpc_* calls clang emits).
#   COMPILE_OPTIONS  flags for the C/C++/CUDA/HIP/Fortran compiles (not rustc); kept in the
#                    target property ENZYME_COMPILE_OPTIONS, which may be extended later.
#   OPT_LEVEL        -O level of the frontends and of the optimization after AD (default 2).
#   ENZYME_OPTIONS   extra options of `enzyme build` (for example --no-preopt).
#
# GPU code: a target of only .cu sources and no kind builds PTX (<target>.ptx, in the target property
# ENZYME_PTX); .cu sources with a kind (EXECUTABLE ...) or beside host sources make a CUDA program (each
# .cu file's kernels differentiated on the device side and embedded as a fat binary in its host side,
# linked with the CUDA toolkit's libcudart; one GPU architecture, COMPILE_OPTIONS --cuda-gpu-arch=sm_XX,
# default sm_90).  A target of only .hip sources builds an AMDGPU code object (<target>.hsaco, property
# ENZYME_CODE_OBJECT; COMPILE_OPTIONS --offload-arch=gfxNNN, default gfx90a) for hipModuleLoad.
#
# The target's INCLUDE_DIRECTORIES and COMPILE_DEFINITIONS (including those of linked targets)
# are read lazily at generate time, so target_include_directories() after this call works.
# Runtime libraries of Fortran (flang's runtime) and Rust (std) are linked when those sources
# are present.  Fortran sources are compiled in the order given (put modules first) and may
# `use enzyme` (frontends/fortran/enzyme.f90); Rust sources may `use enzyme::...` (the crate in
# frontends/rust/enzyme).
#
# Tools: clang-22, flang-22 and rustc are those `enzyme` finds (ENZYME_CLANG, ENZYME_FLANG,
# ENZYME_RUSTC in the environment) unless the CMake variables ENZYME_CLANG_EXECUTABLE,
# ENZYME_FLANG_EXECUTABLE or ENZYME_RUSTC_EXECUTABLE name others; all must be built on the
# LLVM major of pyenzyme.  The `enzyme` command itself is the one of the Python whose
# pyenzyme holds this file: ENZYME_EXECUTABLE overrides it.
include_guard(GLOBAL)

# Where pyenzyme's files are: next to this file in the wheel (enzyme/cmake, enzyme/include,
# enzyme/fortran, enzyme/rust) or in a checkout (cmake/, frontends/include, ...).
function(_enzyme_asset_dirs out_include out_fortran out_rust)
  get_filename_component(root "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.." ABSOLUTE)
  if(EXISTS "${root}/include/enzyme/enzyme.h")
    set(${out_include} "${root}/include" PARENT_SCOPE)
    set(${out_fortran} "${root}/fortran" PARENT_SCOPE)
    set(${out_rust} "${root}/rust" PARENT_SCOPE)
  else()
    set(${out_include} "${root}/frontends/include" PARENT_SCOPE)
    set(${out_fortran} "${root}/frontends/fortran" PARENT_SCOPE)
    set(${out_rust} "${root}/frontends/rust" PARENT_SCOPE)
  endif()
endfunction()

function(_enzyme_fail)
  # Pieces joined one by one: ARGN would split them at the semicolons inside messages.
  set(message "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE ${last})
    string(APPEND message "${ARGV${i}}")
  endforeach()
  message(FATAL_ERROR "enzyme_add_differentiable(): ${message}")
endfunction()

# The pyenzyme language of a source file, from its suffix.
function(_enzyme_language_of source out)
  # Set here, not at file scope: the caller may be another directory than the includer.
  # Mirrors enzyme/toolchain/languages.py (tests/cmake checks that the two agree).
  set(_ENZYME_SUFFIX_LANGUAGES
    .c=c .i=c
    .C=cxx .cc=cxx .cpp=cxx .cxx=cxx .c++=cxx .cp=cxx .ii=cxx
    .f=fortran .for=fortran .f77=fortran .f90=fortran .f95=fortran .f03=fortran .f08=fortran
    .f18=fortran .fpp=fortran .F=fortran .F90=fortran .FOR=fortran .F77=fortran .F95=fortran
    .F03=fortran .F08=fortran .F18=fortran .FPP=fortran
    .rs=rust
    .cu=cuda
    .hip=hip
    .ll=ir .bc=ir)
  get_filename_component(name "${source}" NAME)
  string(REGEX MATCH "\\.[^.]*$" suffix "${name}")
  string(TOLOWER "${suffix}" lower)
  # The exact suffix first (.F is not .f everywhere), then its lower-case spelling.
  foreach(candidate IN ITEMS "${suffix}" "${lower}")
    foreach(pair IN LISTS _ENZYME_SUFFIX_LANGUAGES)
      string(REPLACE "=" ";" pair "${pair}")
      list(GET pair 0 known)
      list(GET pair 1 language)
      if(candidate STREQUAL known)
        set(${out} "${language}" PARENT_SCOPE)
        return()
      endif()
    endforeach()
  endforeach()
  _enzyme_fail("cannot tell the language of source '${source}' from its suffix '${suffix}'; use one of "
               ".c .cpp .cc .cxx .f90 .f .rs .cu .hip .ll .bc")
endfunction()

# The command that runs pyenzyme's CLI, checked once per configure: ENZYME_EXECUTABLE, else the
# `python -m enzyme` or `enzyme` whose --cmake-dir is this package (same version as fallback).
function(_enzyme_command out)
  get_property(found GLOBAL PROPERTY _ENZYME_COMMAND SET)
  if(found)
    get_property(command GLOBAL PROPERTY _ENZYME_COMMAND)
    set(${out} "${command}" PARENT_SCOPE)
    return()
  endif()
  set(candidates)
  if(ENZYME_EXECUTABLE)
    list(APPEND candidates "${ENZYME_EXECUTABLE}")
  else()
    foreach(python IN ITEMS "${Python_EXECUTABLE}" "${Python3_EXECUTABLE}")
      if(python)
        list(APPEND candidates "${python}|-m|enzyme")
      endif()
    endforeach()
    find_program(_enzyme_program NAMES enzyme NO_CACHE)
    if(_enzyme_program)
      list(APPEND candidates "${_enzyme_program}")
    endif()
  endif()
  get_filename_component(this_dir "${CMAKE_CURRENT_FUNCTION_LIST_DIR}" REALPATH)
  set(same_version)
  set(tried)
  foreach(candidate IN LISTS candidates)
    string(REPLACE "|" ";" command "${candidate}")
    # In the build tree, as the build commands run: `python -m` imports from the working directory first.
    execute_process(COMMAND ${command} --cmake-dir RESULT_VARIABLE rc OUTPUT_VARIABLE dir ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE WORKING_DIRECTORY "${CMAKE_BINARY_DIR}")
    list(JOIN command " " shown)
    list(APPEND tried "${shown}")
    if(NOT rc EQUAL 0)
      continue()
    endif()
    get_filename_component(dir "${dir}" REALPATH)
    if(dir STREQUAL this_dir)
      set_property(GLOBAL PROPERTY _ENZYME_COMMAND "${command}")
      set(${out} "${command}" PARENT_SCOPE)
      return()
    endif()
    if(NOT same_version)
      execute_process(COMMAND ${command} --version RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_QUIET
                      OUTPUT_STRIP_TRAILING_WHITESPACE WORKING_DIRECTORY "${CMAKE_BINARY_DIR}")
      if(rc EQUAL 0 AND Enzyme_VERSION AND version STREQUAL "pyenzyme ${Enzyme_VERSION}")
        set(same_version "${command}")
      endif()
    endif()
  endforeach()
  if(same_version)
    list(JOIN same_version " " shown)
    message(STATUS "Using ${shown} (pyenzyme ${Enzyme_VERSION}, another install than ${this_dir})")
    set_property(GLOBAL PROPERTY _ENZYME_COMMAND "${same_version}")
    set(${out} "${same_version}" PARENT_SCOPE)
    return()
  endif()
  list(JOIN tried ", " tried)
  _enzyme_fail("no working `enzyme` command of this pyenzyme (${this_dir}) found (tried: ${tried}); "
               "set -DENZYME_EXECUTABLE=/path/to/enzyme or -DPython_EXECUTABLE to the Python that has pyenzyme")
endfunction()

# `enzyme build-info` for a set of languages, cached per configure: checks the tools' LLVM major.
function(_enzyme_build_info command env languages out_tools out_libraries)
  list(JOIN languages "," key)
  set(property "_ENZYME_BUILD_INFO_${key}")
  get_property(cached GLOBAL PROPERTY "${property}" SET)
  if(NOT cached)
    set(args)
    foreach(language IN LISTS languages)
      list(APPEND args --language "${language}")
    endforeach()
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${command} build-info ${args}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE info ERROR_VARIABLE error
                    WORKING_DIRECTORY "${CMAKE_BINARY_DIR}")
    if(NOT rc EQUAL 0)
      string(STRIP "${error}" error)
      string(REGEX REPLACE "^error: " "" error "${error}")
      _enzyme_fail("${error}")
    endif()
    set_property(GLOBAL PROPERTY "${property}" "${info}")
  endif()
  get_property(info GLOBAL PROPERTY "${property}")
  string(REGEX MATCH "link_libraries=([^\n]*)" _ "${info}")
  set(${out_libraries} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  set(tools)
  foreach(tool IN ITEMS clang flang rustc)
    if(info MATCHES "tool\\.${tool}=([^\n]*)")
      string(TOUPPER "${tool}" upper)
      list(APPEND tools "ENZYME_${upper}=${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out_tools} "${tools}" PARENT_SCOPE)
endfunction()

function(enzyme_add_differentiable target)
  list(APPEND CMAKE_MESSAGE_CONTEXT "enzyme")
  if(CMAKE_VERSION VERSION_LESS 3.20)
    _enzyme_fail("needs CMake 3.20 or newer (DEPFILE for every generator); this is ${CMAKE_VERSION}")
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "STATIC;SHARED;MODULE;EXECUTABLE" "OPT_LEVEL"
                        "SOURCES;LINK_LIBRARIES;COMPILE_OPTIONS;ENZYME_OPTIONS")
  if(TARGET "${target}")
    _enzyme_fail("target '${target}' already exists")
  endif()
  set(kinds)
  foreach(kind IN ITEMS STATIC SHARED MODULE EXECUTABLE)
    if(arg_${kind})
      list(APPEND kinds ${kind})
    endif()
  endforeach()
  list(LENGTH kinds kind_count)
  if(kind_count GREATER 1)
    list(JOIN kinds " and " kinds)
    _enzyme_fail("target '${target}' is given ${kinds}; give at most one of STATIC, SHARED, MODULE, EXECUTABLE")
  endif()
  # Sources may also come before any keyword; an upper-case word without a suffix among them is a misspelt
  # keyword (after SOURCES, `OPTLEVEL 3` would otherwise be taken for two sources).
  foreach(word IN LISTS arg_SOURCES arg_UNPARSED_ARGUMENTS)
    if(word MATCHES "^[A-Z][A-Z0-9_]*$")
      _enzyme_fail("unknown keyword '${word}' for target '${target}'; enzyme_add_differentiable takes "
                   "STATIC, SHARED, MODULE or EXECUTABLE, OPT_LEVEL <0-3>, SOURCES, LINK_LIBRARIES, "
                   "COMPILE_OPTIONS and ENZYME_OPTIONS")
    endif()
  endforeach()
  set(sources ${arg_SOURCES} ${arg_UNPARSED_ARGUMENTS})
  if(NOT sources)
    _enzyme_fail("no SOURCES given for target '${target}'; "
                 "write enzyme_add_differentiable(${target} SOURCES a.c b.f90 ...)")
  endif()
  if(NOT DEFINED arg_OPT_LEVEL)
    set(arg_OPT_LEVEL 2)
  endif()
  # find_package(OpenMP)'s targets give -fopenmp behind $<COMPILE_LANGUAGE:...>, which the bitcode commands
  # cannot evaluate: linking one of them turns -fopenmp on for the bitcode compiles.
  foreach(library IN LISTS arg_LINK_LIBRARIES)
    if(library MATCHES "^OpenMP::OpenMP_(C|CXX|Fortran)$" AND NOT "-fopenmp" IN_LIST arg_COMPILE_OPTIONS)
      list(APPEND arg_COMPILE_OPTIONS -fopenmp)
    endif()
  endforeach()
  if(NOT arg_OPT_LEVEL MATCHES "^[0-3]$")
    _enzyme_fail("OPT_LEVEL of target '${target}' must be 0, 1, 2 or 3, not '${arg_OPT_LEVEL}'")
  endif()

  # Languages first: a typo in a suffix fails before anything runs.
  set(languages)
  set(source_languages)
  foreach(source IN LISTS sources)
    _enzyme_language_of("${source}" language)
    list(APPEND source_languages "${language}")
    list(APPEND languages "${language}")
  endforeach()
  _enzyme_asset_dirs(include_dir fortran_dir rust_dir)
  if("fortran" IN_LIST languages)
    list(PREPEND sources "${fortran_dir}/enzyme.f90")
    list(PREPEND source_languages fortran)
  endif()
  list(REMOVE_DUPLICATES languages)
  list(SORT languages)
  # Device code is a module of its own (another target triple).  A target of only CUDA sources and no kind
  # builds PTX; CUDA sources with a kind (EXECUTABLE ...) or beside host sources are CUDA programs: each .cu
  # file's device code is differentiated and embedded in its host side, linked with the CUDA runtime.
  # A target of only HIP sources builds an AMDGPU code object; HIP host programs are not supported.
  set(device_only FALSE)
  set(cuda_program FALSE)
  if("hip" IN_LIST languages)
    if(NOT languages STREQUAL "hip")
      _enzyme_fail("target '${target}' mixes HIP device code with other sources; put the .hip files in a "
                   "target of their own (it builds an AMDGPU code object; HIP host programs are not supported)")
    endif()
    if(kinds)
      _enzyme_fail("target '${target}' has only HIP device code, which builds an AMDGPU code object: drop ${kinds}")
    endif()
    set(device_only hip)
  elseif("cuda" IN_LIST languages)
    if(languages STREQUAL "cuda" AND NOT kinds)
      set(device_only cuda)
    else()
      set(cuda_program TRUE)
    endif()
  endif()

  # A missing source fails now, not halfway through the build (generated sources are made by the build).
  foreach(source IN LISTS sources)
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_source_file_property(generated "${path}" GENERATED)
    if(NOT EXISTS "${path}" AND NOT generated)
      _enzyme_fail("source '${source}' of target '${target}' does not exist (looked for ${path})")
    endif()
  endforeach()

  _enzyme_command(enzyme)
  set(env)
  foreach(tool IN ITEMS CLANG FLANG RUSTC)
    if(ENZYME_${tool}_EXECUTABLE)
      list(APPEND env "ENZYME_${tool}=${ENZYME_${tool}_EXECUTABLE}")
    endif()
  endforeach()
  _enzyme_build_info("${enzyme}" "${env}" "${languages}" tools runtime_libraries)
  # The build runs exactly the tools checked now.
  set(run ${CMAKE_COMMAND} -E env ${tools} ${enzyme})

  set(work_dir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.enzyme")
  set(module_dir "${work_dir}/fortran-modules")
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(options "$<TARGET_PROPERTY:${target},ENZYME_COMPILE_OPTIONS>")
  set(preprocessor "-I${include_dir}" "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
                   "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>")
  set(flags "$<$<BOOL:${options}>:--flag=$<JOIN:${options},$<SEMICOLON>--flag=>>")

  set(bitcode_files)
  set(previous_fortran)
  set(rust_crate)
  if("rust" IN_LIST languages)
    # The enzyme crate (extern "C" declarations and safe helpers) is one more bitcode unit of the
    # target; its metadata (.rmeta) lets the Rust sources `use enzyme::...` (--extern).
    set(rust_crate "${work_dir}/rust/libenzyme.rmeta")
    set(crate_bitcode "${work_dir}/rust/enzyme.bc")
    add_custom_command(OUTPUT "${crate_bitcode}" BYPRODUCTS "${rust_crate}"
      COMMAND ${run} bitcode "${rust_dir}/enzyme/src/enzyme.rs" -o "${crate_bitcode}" -O${arg_OPT_LEVEL}
              --depfile "${work_dir}/rust/enzyme.d" "--flag=--emit=metadata=${rust_crate}"
      DEPENDS "${rust_dir}/enzyme/src/enzyme.rs"
      DEPFILE "${work_dir}/rust/enzyme.d"
      COMMENT "Enzyme: compiling the enzyme Rust crate to bitcode"
      VERBATIM)
    list(APPEND bitcode_files "${crate_bitcode}")
  endif()
  foreach(source language IN ZIP_LISTS sources source_languages)
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${source}")
    if(relative MATCHES "^\\.\\./" OR IS_ABSOLUTE "${relative}")
      get_filename_component(name "${source}" NAME)
      string(MD5 hash "${source}")
      string(SUBSTRING "${hash}" 0 8 hash)
      set(relative "external/${hash}/${name}")
    endif()
    set(bitcode "${work_dir}/${relative}.bc")
    set(depfile "${work_dir}/${relative}.d")
    set(extra_depends)
    set(source_flags "${flags}")
    if(language STREQUAL "fortran")
      # .mod files flow from earlier files to later ones: compile in the order given.
      set(source_args --module-dir "${module_dir}" ${preprocessor})
      set(extra_depends ${previous_fortran})
      set(previous_fortran "${bitcode}")
    elseif(language STREQUAL "rust")
      set(source_args "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>" "--flag=--extern=enzyme=${rust_crate}")
      set(extra_depends "${crate_bitcode}")
      set(source_flags)
    elseif(language STREQUAL "ir")
      set(source_args)
    elseif(language STREQUAL "cuda" AND cuda_program)
      set(source_args ${preprocessor} --cuda-program)
    else()
      set(source_args ${preprocessor})
    endif()
    add_custom_command(OUTPUT "${bitcode}"
      COMMAND ${run} bitcode "${source}" -o "${bitcode}" -O${arg_OPT_LEVEL} --depfile "${depfile}"
              ${source_args} ${source_flags}
      DEPENDS "${source}" ${extra_depends}
      DEPFILE "${depfile}"
      COMMENT "Enzyme: compiling ${relative} to bitcode"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND bitcode_files "${bitcode}")
  endforeach()

  if(device_only)
    # GPU device code: differentiated and emitted as PTX (CUDA) or a code object (HIP); a custom target builds it.
    if(device_only STREQUAL "cuda")
      set(device_file "${work_dir}/${target}.ptx")
      set(property ENZYME_PTX)
      set(what "CUDA device code to PTX")
    else()
      set(device_file "${work_dir}/${target}.hsaco")
      set(property ENZYME_CODE_OBJECT)
      set(what "HIP device code to an AMDGPU code object")
    endif()
    add_custom_command(OUTPUT "${device_file}"
      COMMAND ${run} build ${bitcode_files} -o "${device_file}" -O${arg_OPT_LEVEL} ${arg_ENZYME_OPTIONS}
      DEPENDS ${bitcode_files}
      COMMENT "Enzyme: linking and differentiating ${target} (${what})"
      COMMAND_EXPAND_LISTS VERBATIM)
    add_custom_target(${target} ALL DEPENDS "${device_file}")
    set_target_properties(${target} PROPERTIES
      ${property} "${device_file}"
      ENZYME_COMPILE_OPTIONS "${arg_COMPILE_OPTIONS}"
      ENZYME_LANGUAGES "${languages}")
    return()
  endif()

  set(object "${work_dir}/${target}.enzyme.o")
  add_custom_command(OUTPUT "${object}"
    COMMAND ${run} build ${bitcode_files} -o "${object}" -O${arg_OPT_LEVEL} ${arg_ENZYME_OPTIONS}
    DEPENDS ${bitcode_files}
    COMMENT "Enzyme: linking and differentiating ${target}"
    COMMAND_EXPAND_LISTS VERBATIM)
  set_source_files_properties("${object}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)

  if(arg_EXECUTABLE)
    add_executable(${target} "${object}")
  elseif(arg_MODULE AND COMMAND Python_add_library AND TARGET Python::Module)
    Python_add_library(${target} MODULE WITH_SOABI "${object}")
  elseif(arg_MODULE AND COMMAND Python3_add_library AND TARGET Python3::Module)
    Python3_add_library(${target} MODULE WITH_SOABI "${object}")
  else()
    add_library(${target} ${kinds} "${object}")
  endif()

  # Only an object to link: the link driver is the one of a language the project enabled.
  get_property(enabled GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(linker_language)
  if(("cxx" IN_LIST languages OR "cuda" IN_LIST languages) AND "CXX" IN_LIST enabled)
    set(linker_language CXX)
  else()
    foreach(candidate IN ITEMS C CXX Fortran)
      if(candidate IN_LIST enabled)
        set(linker_language ${candidate})
        break()
      endif()
    endforeach()
  endif()
  if(NOT linker_language)
    _enzyme_fail("target '${target}' needs a linker: enable C or CXX in project() (for example project(x LANGUAGES C))")
  endif()
  set_target_properties(${target} PROPERTIES
    LINKER_LANGUAGE ${linker_language}
    ENZYME_COMPILE_OPTIONS "${arg_COMPILE_OPTIONS}"
    ENZYME_LANGUAGES "${languages}")
  if(arg_LINK_LIBRARIES)
    target_link_libraries(${target} PRIVATE ${arg_LINK_LIBRARIES})
  endif()
  if(runtime_libraries)
    target_link_libraries(${target} PRIVATE ${runtime_libraries})
  endif()
endfunction()
