from typing import Optional

import torch
import torch.nn as nn

from base import Model
from triples import TriplesFactory


class TransE(Model):
    """An implementation of TransE: h + r ~ t."""

    def __init__(self, triples_factory: TriplesFactory, embedding_dim: int = 50, scoring_fct_norm: int = 1,
                 preferred_device: Optional[str] = None):
        super().__init__(triples_factory=triples_factory, preferred_device=preferred_device)
        self.embedding_dim = embedding_dim
        self.scoring_fct_norm = scoring_fct_norm
        self.entity_embeddings = nn.Embedding(triples_factory.num_entities, embedding_dim)
        self.relation_embeddings = nn.Embedding(triples_factory.num_relations, embedding_dim)
        # Finalize initialization
        self.to_device_()

    def score_t(self, hr_batch: torch.LongTensor) -> torch.FloatTensor:
        h = self.entity_embeddings(hr_batch[:, 0]).view(-1, 1, self.embedding_dim)
        r = self.relation_embeddings(hr_batch[:, 1]).view(-1, 1, self.embedding_dim)
        t = self.entity_embeddings.weight.view(1, -1, self.embedding_dim)
        return -torch.norm(h + r - t, dim=-1, p=self.scoring_fct_norm)
