import numpy as np
import torch


class TriplesFactory:
    """Create instances given the path to triples: labels are mapped to ids, the id triples kept as a tensor."""

    def __init__(self, triples: np.ndarray):
        self.triples = triples
        entities = sorted(set(triples[:, 0]) | set(triples[:, 2]))
        relations = sorted(set(triples[:, 1]))
        self.entity_to_id = {e: i for i, e in enumerate(entities)}
        self.relation_to_id = {r: i for i, r in enumerate(relations)}
        self.num_entities = len(entities)
        self.num_relations = len(relations)
        self.mapped_triples = torch.tensor(
            [[self.entity_to_id[h], self.relation_to_id[r], self.entity_to_id[t]] for h, r, t in triples],
            dtype=torch.long,
        )
