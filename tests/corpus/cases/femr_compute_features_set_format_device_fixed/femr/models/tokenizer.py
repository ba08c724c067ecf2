from typing import List


class FEMRTokenizer:
    """A flat (non-hierarchical) code vocabulary."""

    is_hierarchical = False

    def __init__(self, vocab: List[str]):
        self.vocab = vocab
        self.code_lookup = {code: i for i, code in enumerate(vocab)}

    @classmethod
    def from_pretrained(cls, model_path: str, ontology=None) -> "FEMRTokenizer":
        # the dictionary saved with the pretrained model
        return cls(["SNOMED/%d" % i for i in range(32)])

    def get_feature_codes(self, measurement) -> List[int]:
        code = self.code_lookup.get(measurement["code"])
        return [] if code is None else [code]
