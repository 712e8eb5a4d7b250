"""LLVM pass pipelines run before and after differentiation."""
from __future__ import annotations

import llvmlite.binding as llvm

from enzyme.errors import UsageError
from enzyme.llvm.optimized_unit import is_one_optimized_unit
from enzyme.llvm.targets import target_machine_for


def strip_debug(mod: llvm.ModuleRef) -> None:
    """Remove debug records, ``!dbg`` attachments and ``!DI*`` metadata in place."""
    manager = llvm.create_new_module_pass_manager()
    manager.add_strip_symbols_pass()
    manager.run(mod, _pass_builder(mod, speed_level=0))


def preopt(mod: llvm.ModuleRef) -> None:
    """Prepare a primal module for AD, in place.

    O2 without loop/SLP vectorization and unrolling (as upstream Enzyme
    recommends: those passes make the code harder to differentiate and are run
    afterwards anyway), then loop-simplify and LCSSA, which the loop analyses
    of the AD engine rely on.  One translation unit that pyenzyme's clang
    optimized so already (``optimized_unit``) only gets the loop passes.
    """
    builder = _pass_builder(mod, speed_level=2, vectorize_and_unroll=False)
    if not is_one_optimized_unit(str(mod)):
        builder.getModulePassManager().run(mod, builder)
    canonical_loops = llvm.create_new_module_pass_manager()
    canonical_loops.add_loop_simplify_pass()
    canonical_loops.add_lcssa_pass()
    canonical_loops.run(mod, builder)


def optimize(mod: llvm.ModuleRef, level: int, *, vectorize_and_unroll: bool = True, slp: bool = True,
             time_passes: bool = False) -> str:
    """Run LLVM's default ``O<level>`` pipeline in place; level 0 changes nothing.

    Without ``vectorize_and_unroll`` it is the frontends' pre-AD pipeline
    (clang with -fno-vectorize -fno-slp-vectorize -fno-unroll-loops); without
    ``slp`` only the SLP vectorizer is left out.  With ``time_passes`` the
    result is LLVM's per-pass timing report (benchmarks), else "".
    """
    if level not in (0, 1, 2, 3):
        raise UsageError(f"optimization level must be 0, 1, 2 or 3, not {level}")
    if level == 0:
        return ""
    builder = _pass_builder(mod, speed_level=level, vectorize_and_unroll=vectorize_and_unroll, slp=slp)
    if time_passes:
        builder.start_pass_timing()
    builder.getModulePassManager().run(mod, builder)
    return builder.finish_pass_timing() if time_passes else ""


def _pass_builder(mod: llvm.ModuleRef, *, speed_level: int, vectorize_and_unroll: bool = True,
                  slp: bool = True) -> llvm.PassBuilder:
    options = llvm.create_pipeline_tuning_options(speed_level=speed_level)
    options.loop_vectorization = vectorize_and_unroll
    options.slp_vectorization = vectorize_and_unroll and slp
    options.loop_unrolling = vectorize_and_unroll
    return llvm.create_pass_builder(target_machine_for(mod, opt=speed_level), options)
