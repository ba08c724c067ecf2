"""`_tensor_annotation` reads dotted names, `a | b | None` of them and `Optional[<dotted>]` from the tree and the rest from
the source text (`ast.unparse`): both ways must give the text's answer.  The reference below is
the text rule alone; 134,398 annotations of transformers and the review repositories gave the
same answers both ways when the tree reading was added."""
from __future__ import annotations

import ast

import pytest

from torchplace_rules.flow.contexts import _tensor_annotation


def text_rule(annotation) -> bool:
    text = ast.unparse(annotation)
    if text.startswith("Union[") and text.endswith(", None]") and "," not in text[6:-7]:
        text = text[6:-7]
    return "Tensor" in text and "[" not in text.replace("Optional[", "").replace("]", "", 1)


@pytest.mark.parametrize("source, expected", [
    ("Tensor", True), ("torch.Tensor", True), ("torch.FloatTensor", True), ("typing.Any", False),
    ("Optional[torch.Tensor]", True), ("Optional[int]", False), ("typing.Optional[torch.Tensor]", True),
    ("Optional[list[Tensor]]", False), ("Optional[Optional[Tensor]]", True), ("list[Tensor]", False),
    ("Union[torch.Tensor, None]", True), ("Union[Tensor, int]", False), ("torch.Tensor | None", True),
    ("'torch.Tensor'", True), ("Optional['Tensor']", True), ("Tuple[Tensor, Tensor]", False),
    ("Optional[TensorType]", True), ("nn.Module", False), ("int | torch.Tensor", True), ("bool | None", False),
    ("torch.LongTensor | None | int", True), ("list[Tensor] | None", False), ("None | Tensor", True),
])
def test_tree_reading_gives_the_text_rule(source, expected):
    annotation = ast.parse(source, mode="eval").body
    assert text_rule(annotation) == expected
    assert _tensor_annotation(annotation) == expected
