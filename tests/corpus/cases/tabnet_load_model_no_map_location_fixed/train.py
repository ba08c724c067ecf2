"""Census-style example, training part: fit a TabNetClassifier (on the GPU when there is one) and save it."""
import numpy as np

from pytorch_tabnet.tab_model import TabNetClassifier

rng = np.random.default_rng(0)
X_train = rng.normal(size=(512, 10)).astype(np.float32)
y_train = (X_train[:, 0] + X_train[:, 3] > 0).astype(np.int64)

clf = TabNetClassifier()
clf.fit(X_train, y_train, max_epochs=3)
saved_filepath = clf.save_model('./tabnet_model_test_1')
