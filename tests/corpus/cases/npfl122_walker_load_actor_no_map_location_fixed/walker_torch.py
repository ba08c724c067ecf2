#!/usr/bin/env python3
import argparse

import numpy as np
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--recodex", default=False, action="store_true", help="Running in ReCodEx")
parser.add_argument("--seed", default=None, type=int, help="Random seed.")
parser.add_argument("--hidden_layer_size", default=64, type=int, help="Size of hidden layer.")
parser.add_argument("--learning_rate", default=3e-4, type=float, help="Learning rate.")
parser.add_argument("--model_path", default="walker.model", type=str, help="Model path")
parser.add_argument("--evaluate_for", default=3, type=int, help="Evaluate the given number of episodes.")

OBSERVATION_SIZE, ACTION_SIZE = 24, 4  # BipedalWalker-v3
ACTION_LOW, ACTION_HIGH = -np.ones(ACTION_SIZE, np.float32), np.ones(ACTION_SIZE, np.float32)


class Network:
    def __init__(self, args: argparse.Namespace) -> None:
        # Use GPU if available.
        self._device = device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

        class Actor(nn.Module):
            def __init__(self, hidden_layer_size: int):
                super().__init__()
                self._hidden = nn.Sequential(
                    nn.Linear(OBSERVATION_SIZE, hidden_layer_size), nn.ReLU(),
                    nn.Linear(hidden_layer_size, hidden_layer_size), nn.ReLU(),
                )
                self._mus = nn.Linear(hidden_layer_size, ACTION_SIZE)
                self._sds = nn.Linear(hidden_layer_size, ACTION_SIZE)
                self._log_alpha = nn.Parameter(torch.tensor(np.log(0.1), dtype=torch.float32).to(device))

            def forward(self, inputs, sample: bool):
                loc = torch.from_numpy((ACTION_HIGH + ACTION_LOW) / 2).to(device)
                scale = torch.from_numpy((ACTION_HIGH - ACTION_LOW) / 2).to(device)
                hidden = self._hidden(inputs)
                mus, sds = self._mus(hidden), torch.exp(self._sds(hidden))
                if not sample:
                    return torch.tanh(mus) * scale + loc, None, None
                actions = torch.tanh(mus + sds * torch.randn_like(sds)) * scale + loc
                return actions, None, torch.exp(self._log_alpha)

        self._actor = Actor(args.hidden_layer_size).to(device)
        self._optimizer = torch.optim.Adam(self._actor.parameters(), lr=args.learning_rate)

    def save_actor(self, path: str):
        torch.save(self._actor.state_dict(), path)

    def load_actor(self, path: str):
        self._actor.load_state_dict(torch.load(path, map_location=self._device))

    # Predict actions without sampling.
    def predict_mean_actions(self, states: np.ndarray) -> np.ndarray:
        states = torch.from_numpy(states).to(self._device)
        with torch.no_grad():
            return self._actor(states, sample=False)[0].cpu().numpy()


def main(args: argparse.Namespace) -> None:
    np.random.seed(args.seed)
    if args.seed is not None:
        torch.manual_seed(args.seed)

    network = Network(args)

    # Evaluation in ReCodEx: the actor trained (on a GPU) and submitted as `walker.model`
    if args.recodex:
        network.load_actor(args.model_path)
        for _ in range(args.evaluate_for):
            state = np.random.uniform(-1, 1, size=[1, OBSERVATION_SIZE]).astype(np.float32)
            print(network.predict_mean_actions(state))
        return

    network.save_actor(args.model_path)


if __name__ == "__main__":
    main(parser.parse_args())
