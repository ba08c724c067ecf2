import numpy as np
import torch
from pytorch_tabnet.abstract_model import TabModel


class TabNetClassifier(TabModel):
    def __post_init__(self):
        super(TabNetClassifier, self).__post_init__()
        self._task = 'classification'
        self._default_loss = torch.nn.functional.cross_entropy

    def compute_loss(self, y_pred, y_true):
        return self._default_loss(y_pred, y_true.long())

    def predict_func(self, outputs):
        return np.argmax(outputs, axis=1)
