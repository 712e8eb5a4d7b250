"""Analyses of the AD engine: data layout, type analysis, activity analysis, and their printers.

    from enzyme.analysis import TypeAnalysis, analyze_activity
    info = TypeAnalysis(module).analyze(f)                 # per-offset types of every value
    act = analyze_activity(module, f, ["dup", "const"], ret_active=True)
    act.is_constant_value(v), act.is_constant_instruction(i), act.errors
"""
from __future__ import annotations

from .activity import ActivityResult, analyze_activity, normalize_activity
from .debuginfo import describe, instruction_text, source_location, value_name
from .layout import DataLayout, StructLayout
from .memory_objects import MemoryObject
from .printers import format_activity, print_activity, print_types
from .type_analysis import FunctionTypeInfo, TypeAnalysis, TypeConflict
from .type_tree import ANYTHING, INTEGER, POINTER, ConcreteType, TypeTree, float_type

__all__ = [
    "ANYTHING", "INTEGER", "POINTER", "ActivityResult", "ConcreteType", "DataLayout", "FunctionTypeInfo",
    "MemoryObject", "StructLayout", "TypeAnalysis", "TypeConflict", "TypeTree", "analyze_activity", "describe",
    "float_type", "format_activity", "instruction_text", "normalize_activity", "print_activity", "print_types",
    "source_location", "value_name",
]
