import torch

from collections import Counter
from typing import Dict, List


class TargetManager:
    def __init__(self, protocol: str, id2target: Dict[str, List[int]], class_str2int: Dict[str, int]):
        self.protocol = protocol
        self._id2target = id2target
        self.class_str2int = class_str2int
        self.class_int2str = {v: k for k, v in class_str2int.items()}
        self.number_of_outputs = len(class_str2int)

    def get_datasets(self, id2emb):
        samples = [(seq_id, id2emb[seq_id], torch.tensor(self._id2target[seq_id])) for seq_id in id2emb]
        split = max(1, len(samples) // 4)
        return samples[2 * split:], samples[split:2 * split], samples[:split]

    def compute_class_weights(self) -> torch.FloatTensor:
        if 'class' in self.protocol:
            # concatenate all labels irrespective of protein to count class sizes
            counter = Counter([label for labels in self._id2target.values() for label in labels])
            # total number of samples in the set irrespective of classes
            n_samples = sum([counter[idx] for idx in range(len(self.class_str2int))])
            # balanced class weighting (inversely proportional to class size)
            class_weights = [
                (n_samples / (len(self.class_str2int) * counter[idx])) for idx in range(len(self.class_str2int))
            ]
            return torch.FloatTensor(class_weights)
        else:
            raise Exception(f"Class weights can only be calculated for classification tasks!")
