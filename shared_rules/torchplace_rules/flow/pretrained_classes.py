"""Library classes with a `from_pretrained` the engine models, by the last part of their name: a
model class (`BertModel`, `BertForSequenceClassification`) loads a module on the CPU, an encoder
class (`BertTokenizer`, `CLIPProcessor`) loads a tokenizer or processor.

Code often picks one of several such classes at run time, from a table or a branch
(`config_class, model_class, tokenizer_class = MODEL_CLASSES[args.model_type]`,
`cls = BertModel if bert else XLMModel`).  For the engine the choices behave alike, so the join of two
classes of one kind from one package is a class of that kind (`joined_class`), not an unknown value.
"""
from __future__ import annotations

from typing import Optional

ENCODER_SUFFIXES = ("Tokenizer", "TokenizerFast", "Processor", "FeatureExtractor", "ImageProcessor")


def is_model_class(qual: str) -> bool:
    """`transformers.BertModel`, `transformers.BertForMaskedLM`: `from_pretrained` makes a model."""
    last = qual.rpartition(".")[2]
    return "Model" in last or "For" in last


def is_encoder_class(qual: str) -> bool:
    """`transformers.AutoTokenizer`, `transformers.CLIPProcessor`: `from_pretrained` makes an encoder."""
    return qual.rpartition(".")[2].endswith(ENCODER_SUFFIXES)


def joined_class(a: str, b: str) -> Optional[str]:
    """A name standing for either of two imported classes of one package that are both model classes
    or both encoder classes (its `from_pretrained` is read as theirs); None for any other pair."""
    package = a.partition(".")[0]
    if "." not in a or "." not in b or package != b.partition(".")[0]:
        return None
    if is_model_class(a) and is_model_class(b):
        return package + ".<one of>Model"
    if is_encoder_class(a) and is_encoder_class(b) and not (is_model_class(a) or is_model_class(b)):
        return package + ".<one of>Tokenizer"
    return None
