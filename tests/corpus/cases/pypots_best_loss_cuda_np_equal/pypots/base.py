"""
Base class for all models.
"""
import numpy as np
import torch


class BaseModel:
    """ Base class for all models.
    """

    def __init__(self, device):
        self.logger = {}
        self.model = None

        if device is None:
            self.device = torch.device(
                "cuda:0" if torch.cuda.is_available() and torch.cuda.device_count() > 0 else "cpu"
            )
        else:
            self.device = device

    def check_input(self, expected_n_steps, expected_n_features, X, out_dtype='tensor'):
        """ Check value type and shape of input X; convert it to a tensor on self.device.
        """
        is_list = isinstance(X, list)
        is_array = isinstance(X, np.ndarray)
        if out_dtype == 'tensor':
            if is_list:
                X = torch.tensor(X).to(self.device)
            elif is_array:
                X = torch.from_numpy(X).to(self.device)
            else:  # is tensor
                X = X.to(self.device)

        X_shape = X.shape
        assert len(X_shape) == 3, f'input should have 3 dimensions [n_samples, seq_len, n_features]'
        assert X_shape[1] == expected_n_steps, f'expect X.shape[1] to be {expected_n_steps}, but got {X_shape[1]}'
        assert X_shape[2] == expected_n_features, f'expect X.shape[2] to be {expected_n_features}, but got {X_shape[2]}'
        return X


class BaseNNModel(BaseModel):
    def __init__(self, learning_rate, epochs, patience, batch_size, weight_decay, device):
        super().__init__(device)

        # training hype-parameters
        self.batch_size = batch_size
        self.epochs = epochs
        self.patience = patience
        self.original_patience = patience
        self.lr = learning_rate
        self.weight_decay = weight_decay

        self.model = None
        self.optimizer = None
        self.best_model_dict = None
        self.best_loss = float('inf')
        self.logger = {
            'training_loss': [],
            'validating_loss': []
        }
