from torch.utils.data import DataLoader

from label_accuracy_evaluator import LabelAccuracyEvaluator
from sentence_transformer import SentenceTransformer
from softmax_loss import SoftmaxLoss


def evaluate(dev_samples, num_labels=3):
    model = SentenceTransformer()
    softmax_model = SoftmaxLoss(model=model, sentence_embedding_dimension=768, num_labels=num_labels)
    dev_dataloader = DataLoader(dev_samples, batch_size=16, shuffle=False)
    evaluator = LabelAccuracyEvaluator(dev_dataloader, name="nli-dev", softmax_model=softmax_model)
    return evaluator(model)
