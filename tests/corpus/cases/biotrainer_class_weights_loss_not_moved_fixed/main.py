import torch

from biotrainer.target_manager import TargetManager
from biotrainer.trainer import training_and_evaluation_routine

if __name__ == "__main__":
    class_str2int = {"C": 0, "E": 1, "H": 2}
    id2emb, id2target = {}, {}
    for i in range(16):
        length = 5 + i % 4
        id2emb[f"seq{i}"] = torch.randn(length, 128)
        id2target[f"seq{i}"] = [(i + j) % 3 for j in range(length)]
    target_manager = TargetManager("residue_to_class", id2target, class_str2int)
    print(training_and_evaluation_routine(id2emb, target_manager, use_class_weights=True)["device"])
