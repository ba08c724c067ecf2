"""Inference part, run on another machine: load the saved TabNet zip and predict."""
import numpy as np

from pytorch_tabnet.tab_model import TabNetClassifier

rng = np.random.default_rng(1)
X_test = rng.normal(size=(64, 10)).astype(np.float32)

loaded_clf = TabNetClassifier()
loaded_clf.load_model('./tabnet_model_test_1.zip')
print(loaded_clf.predict(X_test)[:10])
