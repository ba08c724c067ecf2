import torch
from torch.utils.data import DataLoader


def batch_to_device(batch, target_device):
    features = batch["features"]
    for paired_sentence_idx in range(len(features)):
        for feature_name in features[paired_sentence_idx]:
            features[paired_sentence_idx][feature_name] = features[paired_sentence_idx][feature_name].to(target_device)
    labels = batch["labels"].to(target_device)
    return features, labels


class LabelAccuracyEvaluator:
    """Accuracy of a SoftmaxLoss classifier on a labelled sentence-pair dataset."""

    def __init__(self, dataloader: DataLoader, name: str = "", softmax_model=None):
        self.dataloader = dataloader
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.name = name
        self.softmax_model = softmax_model
        self.softmax_model.to(self.device)

    def __call__(self, model) -> float:
        model.eval()
        total, correct = 0, 0
        for batch in self.dataloader:
            features, label_ids = batch_to_device(batch, self.device)
            with torch.no_grad():
                _, prediction = self.softmax_model(features, labels=None)
            total += prediction.size(0)
            correct += torch.argmax(prediction, dim=1).eq(label_ids).sum().item()
        return correct / total
