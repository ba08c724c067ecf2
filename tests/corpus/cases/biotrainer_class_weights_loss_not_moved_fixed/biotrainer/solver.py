import math
import torch

from contextlib import nullcontext as _nullcontext
from typing import Callable, Optional, Union

from .utilities import get_device


class Solver:

    def __init__(self,
                 # Necessary
                 network, optimizer, loss_function,
                 # Optional with defaults
                 number_of_epochs: int = 1000, patience: int = 20, epsilon: float = 0.001,
                 device: Union[None, str, torch.device] = None):

        self.network = network
        self.optimizer = optimizer
        self.loss_function = loss_function
        self.number_of_epochs = number_of_epochs
        self.patience = patience
        self.epsilon = epsilon
        self._min_loss = math.inf

        # Device handling
        self.device = get_device(device)
        self.network = network.to(self.device)

    def train(self, training_dataloader, validation_dataloader):
        self.network = self.network.train()
        epoch_iterations = list()
        for epoch in range(self.number_of_epochs):
            validation_iterations = list()
            for i, (_, X, y, lengths) in enumerate(validation_dataloader):
                validation_iterations.append(self._training_iteration(X, y, context=torch.no_grad, lengths=lengths))

            train_iterations = list()
            for i, (_, X, y, lengths) in enumerate(training_dataloader):
                train_iterations.append(self._training_iteration(X, y, lengths=lengths))

            epoch_iterations.append({'training': train_iterations, 'validation': validation_iterations})
        return epoch_iterations

    def _transform_network_output(self, network_output: torch.Tensor) -> torch.Tensor:
        return network_output

    def _logits_to_predictions(self, logits: torch.Tensor) -> torch.Tensor:
        return logits

    def _training_iteration(self, x: torch.Tensor, y: torch.Tensor, context: Optional[Callable] = None,
                            lengths: Optional[torch.LongTensor] = None):
        do_loss_propagation = False

        if not context:
            context = _nullcontext
            do_loss_propagation = True

        # Move everything on device
        x = x.to(self.device)
        y = y.to(self.device)

        with context():
            if do_loss_propagation:
                self.optimizer.zero_grad()

            prediction = self.network(x)

            # Apply logit transformations before computing loss
            prediction = self._transform_network_output(prediction)
            loss = self.loss_function(prediction, y)

            # Discretize predictions if necessary
            prediction = self._logits_to_predictions(prediction)

            if do_loss_propagation:
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

            return {'loss': loss.item(), 'prediction': prediction.tolist()}


class ResidueClassificationSolver(Solver):
    def _transform_network_output(self, network_output: torch.Tensor) -> torch.Tensor:
        # (Batch_size x protein_Length x Number_classes) => (B x N x L)
        return network_output.permute(0, 2, 1)

    def _logits_to_predictions(self, logits: torch.Tensor) -> torch.Tensor:
        prediction_probabilities = torch.softmax(logits, dim=1)
        _, predicted_classes = torch.max(prediction_probabilities, dim=1)
        return predicted_classes


__SOLVERS = {
    'residue_to_class': ResidueClassificationSolver,
}


def get_solver(protocol: str, network=None, optimizer=None, loss_function=None, device=None,
               number_of_epochs=None, patience=None, epsilon=None):
    solver = __SOLVERS.get(protocol)

    if not solver:
        raise NotImplementedError
    else:
        return solver(network=network, optimizer=optimizer, loss_function=loss_function, device=device,
                      number_of_epochs=number_of_epochs, patience=patience, epsilon=epsilon)
