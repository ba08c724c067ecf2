"""Context that changes what a finding means, read from the checked file's syntax tree.

The device-flow analysis (`flow/`) says where values live; this package says what the code
around a finding is for: a test that expects an exception (`expected_errors`), a program that only
ever runs on CUDA or never touches an accelerator (`device_choice`, `scopes`), a checkpoint the
same run wrote (`checkpoints`), an argument used only on the host (`host_uses`).  Rules ask
`file_context(ev)` once they are about to report; nothing here runs for files without findings.
"""
from __future__ import annotations

import ast
from functools import cached_property
from typing import Optional

from .byte_streams import reads_saved_stream
from .callee_writes import saved_by_callee_chain
from .checkpoints import Provenance
from .cpu_checkpoints import saved_on_cpu, saved_on_cpu_at_path
from .cpu_devices import mentions_accelerator_off_the_cpu
from .cuda_only import in_loop_over_cuda_devices
from .device_choice import (
    accelerator_made_default, after_an_unconditional_cuda_call, before_an_unconditional_cuda_call, commits_to_accelerator, has_cpu_path,
    hides_every_accelerator, needs_a_guarded_wrapper, runs_only_with_accelerator, under_device_guard,
)
from .load_callers import importers_hide_every_accelerator, scripts_folder_names_no_accelerator
from .scopes import FUNCTIONS, enclosing, is_script, is_test_path, mentions_accelerator, parent_map, statement_blocks
from .test_scope import code_of_test, enclosing_test


class FileContext:
    """Lazily computed facts about one checked file (one per analysis run)."""

    def __init__(self, tree: ast.Module, path: Optional[str]) -> None:
        self.tree = tree
        self.path = path

    @cached_property
    def parents(self) -> dict[int, ast.AST]:
        return parent_map(self.tree)

    @cached_property
    def blocks(self) -> dict[int, list]:
        """id(statement) -> the statement list holding it (`scopes.statement_blocks`)."""
        return statement_blocks(self.tree)

    @cached_property
    def cpu_path(self) -> bool:
        return has_cpu_path(self.tree, self.parents)

    @cached_property
    def cuda_only(self) -> bool:
        """Every device choice of the program is an accelerator: there is no machine without one to
        run it on (or its entry makes the accelerator the default tensor type or device)."""
        return accelerator_made_default(self.tree) or commits_to_accelerator(self.tree) and not self.cpu_path

    @cached_property
    def mentions_accelerator(self) -> bool:
        """A program (script, test) whose only device is one it pins to the CPU names none."""
        return mentions_accelerator(self.tree) and (not self.is_program or mentions_accelerator_off_the_cpu(self.tree))

    @cached_property
    def cpu_test(self) -> bool:
        """A test module that names no accelerator or device at all: it runs where the tensors it makes
        are, the CPU, whatever device a config it builds or reads back says the model code was written for."""
        return is_test_path(self.path) and not self.mentions_accelerator

    def cpu_test_at(self, node: Optional[ast.AST]) -> bool:
        """`cpu_test`, judged on what the test holding `node` runs (`test_scope.code_of_test`): another
        test of the module, or a fixture this one does not request, that names an accelerator or an
        accelerator library does not put this test's tensors on one."""
        if self.cpu_test or not is_test_path(self.path) or node is None or not self.in_this_file(node):
            return self.cpu_test
        test = enclosing_test(self.parents, node)
        if test is None:
            return False
        known = self.__dict__.setdefault("_cpu_tests", {})
        if id(test) not in known:
            known[id(test)] = not mentions_accelerator(code_of_test(self.tree, self.parents, test))
        return known[id(test)]

    @cached_property
    def is_program(self) -> bool:
        """A script, notebook or test module rather than a library other code imports."""
        return is_test_path(self.path) or is_script(self.tree)

    def in_this_file(self, node: ast.AST) -> bool:
        return id(node) in self.parents or node is self.tree

    def enclosing_function(self, node: ast.AST) -> Optional[ast.AST]:
        return enclosing(self.parents, node, FUNCTIONS)

    def guarded_by_device_choice(self, node: ast.AST) -> bool:
        return under_device_guard(self.parents, node)

    def runs_only_with_accelerator(self, node: ast.AST) -> bool:
        if runs_only_with_accelerator(self.parents, node):
            return True
        scope = self.provenance.scope(self.enclosing_function(node))
        if after_an_unconditional_cuda_call(self.parents, node, scope) or before_an_unconditional_cuda_call(
                self.parents, node, scope) or in_loop_over_cuda_devices(self.parents, node, scope):
            return True
        return needs_a_guarded_wrapper(self.parents, scope.bindings, node)

    @cached_property
    def provenance(self) -> Provenance:
        return Provenance(self.tree, self.enclosing_function)

    def loads_own_checkpoint(self, load: ast.Call) -> bool:
        """Did this run write the file `load` reads, does the program only ever write it with CPU
        tensors, or is it shipped next to the code?  Either way `map_location` changes nothing."""
        if not self.in_this_file(load):
            return False
        return self.provenance.written_by_this_run(load) or self.provenance.shipped_with_the_code(load) or saved_on_cpu(
            self.tree, load, self.provenance.scope, self.enclosing_function) or saved_on_cpu_at_path(
            self.tree, load, self.provenance.scope, self.enclosing_function) or self._saved_through_helpers(load)

    def _saved_through_helpers(self, load: ast.Call) -> bool:
        """Did the run's own code save what `load` reads, into a byte stream (`byte_streams.py`) or
        through a chain of the file's functions given the path's parts (`callee_writes.py`)?"""
        func = self.enclosing_function(load)
        scope = self.provenance.scope(func)
        return reads_saved_stream(self.provenance, load, func, scope) or saved_by_callee_chain(
            self.provenance, load, func, scope)

    def own_class(self, class_node: ast.AST) -> Optional[ast.AST]:
        """The class of this file that `class_node` is: itself, or the class at the same place with the same
        syntax when the node comes from another parse of this file (the project's summary of the checked
        file, which the flow may hand back); None for a class of another module."""
        if self.in_this_file(class_node):
            return class_node
        known = self.__dict__.setdefault("_own_classes", {})
        if id(class_node) not in known:
            where = (class_node.lineno, class_node.col_offset, class_node.end_lineno)
            same = [n for n in ast.walk(self.tree) if isinstance(n, ast.ClassDef) and n.name == class_node.name
                    and (n.lineno, n.col_offset, n.end_lineno) == where]
            known[id(class_node)] = (class_node, next((n for n in same if ast.dump(n) == ast.dump(class_node)), None))
        return known[id(class_node)][1]

    def may_reach_accelerator(self, class_node: ast.AST, targets_accelerator: bool, ev=None) -> bool:
        """Is there evidence that instances of this class end up on an accelerator?  A class local
        to a function (a test's helper) needs a device in that function; a module-level class needs
        one anywhere in the file, unless it is library API that other code imports and moves (not so for a
        module of a folder of scripts whose programs alone import it and name no device).  A
        program that hides every GPU at its entry (and whose importers all do) puts it on none."""
        class_node = self.own_class(class_node)
        if class_node is None:
            return True  # defined in another module of the project: its users decide
        func = self.enclosing_function(class_node)
        if func is not None:
            return mentions_accelerator(func)
        if ev is not None and hides_every_accelerator(self.tree) and importers_hide_every_accelerator(ev):
            return False
        if targets_accelerator or self.mentions_accelerator:
            return True
        if ev is not None and not self.is_program and scripts_folder_names_no_accelerator(ev):
            return False  # a module of a folder of CPU-only scripts, which alone import it
        return not self.is_program


def file_context(ev) -> FileContext:
    """The `FileContext` of the running analysis (made on first use)."""
    ctx = ev.__dict__.get("_file_context")
    if ctx is None or ctx.tree is not ev.tree:
        ctx = FileContext(ev.tree, ev.path)
        ev.__dict__["_file_context"] = ctx
    return ctx
