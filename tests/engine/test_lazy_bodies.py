"""Another file's tree with its function bodies parsed on first read (`lazy_bodies`) is the tree
`ast.parse` gives: positions included, for every shape of text that could mislead the reading
of where a body ends; and a file that cannot be read that way is parsed whole."""
from __future__ import annotations

import ast
import textwrap
import threading

import pytest

from torchplace_rules import lazy_bodies
from torchplace_rules.lazy_bodies import parse_skeleton


class Home:
    pass


def _unread(tree: ast.AST) -> int:
    """How many functions of `tree` have a body not parsed yet (found without reading one)."""
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        lazy = type(node) in lazy_bodies._EAGER
        count += lazy
        for name in node._fields:
            if lazy and name == "body":
                continue
            value = getattr(node, name, None)
            stack.extend(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, ast.AST))
    return count


def _same_as_ast(text: str, unread: int = None) -> ast.Module:
    home = Home()
    tree = parse_skeleton(text, "m.py", home)
    if unread is not None:
        assert _unread(tree) == unread
    assert ast.dump(tree, include_attributes=True) == ast.dump(ast.parse(text), include_attributes=True)
    assert all(getattr(node, "_tp_home", None) is home for node in ast.walk(tree) if hasattr(node, "lineno"))
    return tree


SHAPES = {
    "methods and functions": '''
        import torch

        class M(torch.nn.Module):
            """A docstring."""
            def __init__(self, n):
                super().__init__()
                self.n = n  # a comment

            @property
            def size(self):
                return self.n

            async def run(self):
                await go()
        def helper(x, *, y=1) -> int:
            return x + y
        X = helper(1)
    ''',
    "a docstring with lines at column 0": '''
        def f():
            """First line.
        Column 0 inside the string.
            def not_a_function():
            """
            return 1
        def g():
            return 2
    ''',
    "a multi-line header with strings holding brackets and colons": '''
        def f(
            a: str = "(:",
            b=")",  # ( in a comment
        ) -> dict:
            return {a: b}
        y = 1
    ''',
    "one-line functions and a lambda": '''
        def f(): return 1
        def g(x): return (lambda y: y)(x)
        class C:
            def h(self): pass
    ''',
    "a backslash continuation at column 0 in a body": '''
        def f():
            x = 1 + \\
        2
            return x
        z = f()
    ''',
    "brackets continued at column 0": '''
        def f():
            x = [
        1, 2,
            ]
            return x
    ''',
    "a body ending with a comment and blank lines": '''
        def f():
            return 1  # trailing comment
            # a comment after the last statement

        # a comment at column 0
        def g():
            pass
    ''',
    "a body whose last line is a multi-line string": '''
        def f():
            return """
        text
        """
        def g():
            return 2
    ''',
    "non-ASCII text on the last line": '''
        def f():
            return "résumé—ü"  # commentaire
        v = f()
    ''',
    "triple quotes inside one-line strings and comments": """
        def f():
            a = '\"\"\"'  # \"\"\" in a comment
            b = "'''"
            return a + b
        def g():
            return 1
    """,
    "nested functions and classes": '''
        def outer():
            def inner():
                class K:
                    def m(self):
                        return 1
                return K
            return inner
        def after():
            return outer
    ''',
    "a semicolon at the end": '''
        def f():
            x = 1; y = 2;
        def g():
            return 3
    ''',
    "decorators and a def at the end of the text without a newline": '''
        @decorator(arg=")")
        def f():
            return 1
        def g():
            return 2''',
    "string prefixes and escapes": r'''
        def f():
            a = rb"\\"
            b = f"{a!r}\"'"
            c = u'it\'s'
            return a, b, c
    ''',
}


# functions left unparsed (outermost, multi-line, ending outside strings); 0 where the reading
# misjudges the body (a line of brackets at column 0), so the skeleton does not parse: all parsed.
UNREAD = {"methods and functions": 4, "a docstring with lines at column 0": 2, "one-line functions and a lambda": 0,
          "a body whose last line is a multi-line string": 1, "a semicolon at the end": 1,
          "brackets continued at column 0": 0, "nested functions and classes": 2}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_tree_is_the_one_ast_parse_gives(name):
    _same_as_ast(textwrap.dedent(SHAPES[name]).lstrip("\n"), UNREAD.get(name, None))
    if name not in UNREAD:
        assert _unread(parse_skeleton(textwrap.dedent(SHAPES[name]).lstrip("\n"), "m.py", Home())) >= 1


def test_bodies_are_parsed_only_when_read():
    text = "def f():\n    return 1\n\ndef g():\n    return 2\n"
    tree = parse_skeleton(text, "m.py", Home())
    f, g = tree.body
    assert f.end_lineno == 2 and g.end_lineno == 5  # (the ends, before any body is read)
    assert type(f) is not ast.FunctionDef and type(f).__name__ == "FunctionDef" and isinstance(f, ast.FunctionDef)
    assert isinstance(f.body[0], ast.Return) and type(f) is ast.FunctionDef
    assert type(g) is not ast.FunctionDef  # (g is still unread)


def test_text_this_reading_does_not_vouch_for_is_parsed_whole():
    for text in ("def f():\n\treturn 1\n",  # a tab in indentation
                 "def f():\n    return 1\r    \n",  # a lone carriage return
                 "x = 'unterminated\ndef f():\n    return 1\n"):  # a quote that starts no string
        try:
            expected = ast.dump(ast.parse(text), include_attributes=True)
        except SyntaxError:
            with pytest.raises(SyntaxError):
                parse_skeleton(text, "m.py", Home())
            continue
        tree = parse_skeleton(text, "m.py", Home())
        assert _unread(tree) == 0  # (counted before anything reads a body)
        assert ast.dump(tree, include_attributes=True) == expected


def test_crlf_text_gives_the_same_positions():
    text = "class C:\r\n    def m(self):\r\n        return 1\r\n\r\nx = C()\r\n"
    _same_as_ast(text)


def test_a_body_that_does_not_parse_returns_an_unknown_name():
    """A file that does not parse as a whole may still have a skeleton that does (the error is in
    a body): the broken function returns a name nobody binds, so what it returns is unknown."""
    text = "def f():\n    return (1\n\ndef g():\n    return 2\n"
    with pytest.raises(SyntaxError):
        ast.parse(text)
    tree = parse_skeleton(text, "m.py", Home())
    f, g = tree.body
    (ret,) = f.body
    assert isinstance(ret, ast.Return) and isinstance(ret.value, ast.Name) and ret.lineno == 1
    assert isinstance(g.body[0], ast.Return) and g.body[0].lineno == 5


def test_a_body_is_parsed_once_when_threads_read_it_together():
    text = "".join(f"def f{i}():\n    return {i}\n" for i in range(50))
    tree = parse_skeleton(text, "m.py", Home())
    seen = [[] for _ in range(4)]

    def read(out):
        out.extend(id(fn.body[0]) for fn in tree.body)

    threads = [threading.Thread(target=read, args=(out,)) for out in seen]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen[0] == seen[1] == seen[2] == seen[3]


def test_the_real_sources_of_this_engine_read_the_same():
    """Every module of the engine itself: a corpus of real code the tests always have."""
    from pathlib import Path
    root = Path(lazy_bodies.__file__).parent
    files = sorted(root.rglob("*.py"))
    assert len(files) > 40
    for path in files:
        _same_as_ast(path.read_text(encoding="utf-8"))
