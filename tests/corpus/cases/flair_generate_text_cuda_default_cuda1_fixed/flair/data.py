from typing import List


class Dictionary:
    """Maps characters to indices (flair's character dictionary)."""

    def __init__(self, add_unk=True):
        self.item2idx = {}
        self.idx2item: List[str] = []
        if add_unk:
            self.add_item("<unk>")

    def add_item(self, item: str) -> int:
        if item not in self.item2idx:
            self.idx2item.append(item)
            self.item2idx[item] = len(self.idx2item) - 1
        return self.item2idx[item]

    def get_idx_for_item(self, item: str) -> int:
        return self.item2idx.get(item, 0)

    def __len__(self) -> int:
        return len(self.idx2item)
