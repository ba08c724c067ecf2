from typing import Optional

import torch
import torch.nn as nn

from triples import TriplesFactory


def resolve_device(device: Optional[str] = None) -> torch.device:
    """Resolve a torch.device given a desired device (string)."""
    if device is None or device == "gpu":
        device = "cuda"
    if isinstance(device, str):
        device = torch.device(device)
    if not torch.cuda.is_available() and device.type == "cuda":
        device = torch.device("cpu")
    return device


class Model(nn.Module):
    """A base module for all of the KGE models."""

    def __init__(self, triples_factory: TriplesFactory, preferred_device: Optional[str] = None):
        super().__init__()
        self.device = resolve_device(device=preferred_device)
        self.triples_factory = triples_factory

    def to_device_(self):
        """Transfer model to device."""
        self.to(self.device)
        torch.cuda.empty_cache()
        return self

    def score_t(self, hr_batch: torch.LongTensor) -> torch.FloatTensor:
        raise NotImplementedError

    def predict_scores_all_tails(self, hr_batch: torch.LongTensor) -> torch.FloatTensor:
        self.eval()
        scores = self.score_t(hr_batch)
        return scores

    def predict_tails(self, head_label: str, relation_label: str, add_novelties: bool = True):
        """Predict tails for the given head and relation (given by label)."""
        head_id = self.triples_factory.entity_to_id[head_label]
        relation_id = self.triples_factory.relation_to_id[relation_label]
        batch = torch.tensor([[head_id, relation_id]], dtype=torch.long, device=self.device)
        scores = self.predict_scores_all_tails(batch)
        scores = scores[0].tolist()
        rv = []
        for tail_label, tail_id in self.triples_factory.entity_to_id.items():
            row = [tail_label, scores[tail_id]]
            if add_novelties:
                row.append(self._novel(head_id, relation_id, tail_id))
            rv.append(row)
        return rv

    def _novel(self, h, r, t) -> bool:
        """Return if the triple is novel with respect to the training triples."""
        triple = torch.tensor(data=[h, r, t], dtype=torch.long, device=self.device).view(1, 3)
        return (triple == self.triples_factory.mapped_triples.to(self.device)).all(dim=1).any().item()
