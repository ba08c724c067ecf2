"""`if __name__ == "__main__":` runs where the file is the program: the file checked (and an importer
followed for what it passes into it), never a module read for what it defines.  A function nothing
in the file calls (a web route, a callback) sees what the block did before it handed control over
(`app.run()`).  And a library model's `generate(ids)` (transformers) runs its forward on the inputs as
given, as `model(ids)` does."""
from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"
ROUTE = """\
    model = nn.Linear(4, 4)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


    def predict(text):
        x = torch.rand(1, 4){move}  # (moved: a note that it could be made there, nothing else)
        return model(x)


    if __name__ == "__main__":
        model.to(device)
        print("serving")
    """


def test_a_route_sees_the_model_the_main_block_moved():
    assert_findings(H, ROUTE.format(move=""), {(7, "TP102")})


def test_a_route_that_moves_its_input_is_clean():
    assert_findings(H, ROUTE.format(move=".to(device)"), {(6, "TP301")})


GENERATE = """\
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    tokenizer = AutoTokenizer.from_pretrained("t5-small")
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    ids = tokenizer.encode("summarize: hello", return_tensors="pt"){move}
    out = model.generate(ids, num_beams=4)
    out = model.generate(input_ids=ids, max_length=20)
    """


def test_generate_with_cpu_ids_on_a_moved_model():
    assert_findings(H, GENERATE.format(move=""), {(8, "TP102"), (9, "TP102")})


def test_generate_with_moved_ids():
    assert_findings(H, GENERATE.format(move=".to(device)"), set())


def test_one_predicate_names_the_main_block_for_the_flow_and_the_scopes():
    """The flow decides `__name__ == "__main__"` and the context layer finds the program's block with
    the same predicate: either way round, alone or inside a condition, never another comparison."""
    import ast

    from torchplace_rules.context.scopes import is_main_guard
    from torchplace_rules.syntax_nodes import is_main_test

    def test_of(src):
        return ast.parse(src).body[0]

    assert is_main_test(test_of('__name__ == "__main__"\n').value)
    assert is_main_test(test_of('"__main__" == __name__\n').value)
    assert not is_main_test(test_of('__name__ != "__main__"\n').value)
    assert not is_main_test(test_of('name == "__main__"\n').value)
    assert is_main_guard(test_of('if __name__ == "__main__" and not args.dry:\n    pass\n'))
    assert not is_main_guard(test_of('if sys.argv[0] == "__main__.py":\n    pass\n'))
