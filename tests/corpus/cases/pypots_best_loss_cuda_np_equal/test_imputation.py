import numpy as np

from pypots.imputation import BRITS

EPOCH = 5
n_samples, n_steps, n_features = 64, 24, 10


def generate_data():
    rng = np.random.RandomState(1)
    X = rng.randn(n_samples, n_steps, n_features).astype(np.float32)
    X[rng.rand(*X.shape) < 0.1] = np.nan
    return X[:48], X[48:]


train_X, val_X = generate_data()
brits = BRITS(n_steps, n_features, 32, epochs=EPOCH)
brits.fit(train_X, val_X)
