import copy

import numpy as np
import torch

from qnets import get_qnet


class DQNAgent:
    """Epsilon-greedy DQN agent (a plain class that owns its networks)."""

    def __init__(self, qnet, obs_dim, act_dim, seed=42, batch_size=32, device="cpu"):
        if isinstance(qnet, dict):
            qnet["kwargs"]["in_dim"] = obs_dim
            qnet["kwargs"]["out_dim"] = act_dim
        self._act_dim = act_dim
        self._qnet = get_qnet(qnet)
        self._target_qnet = copy.deepcopy(self._qnet).requires_grad_(False)
        self._optimizer = torch.optim.Adam(self._qnet.parameters())
        self._rng = np.random.default_rng(seed=seed)
        self._device = torch.device(device)
        self._loss_fn = torch.nn.SmoothL1Loss()
        self._batch_size = batch_size

    @torch.no_grad()
    def act(self, observation, epsilon=0.1):
        observation = torch.tensor(np.expand_dims(observation, axis=0)).to(self._device).float()
        qvals = self._qnet(observation).cpu()
        if self._rng.random() < epsilon:
            return self._rng.integers(self._act_dim)
        return torch.argmax(qvals).numpy()

    def update(self, batch):
        for key in batch:
            batch[key] = torch.tensor(batch[key]).to(self._device)
        pred_qvals = self._qnet(batch["observation"])
        pred_qvals = pred_qvals[torch.arange(pred_qvals.size(0)), batch["action"]]
        next_qvals = self._target_qnet(batch["next_observation"]).max(dim=1)[0]
        q_targets = batch["reward"] + 0.99 * next_qvals * (1 - batch["done"])
        loss = self._loss_fn(pred_qvals, q_targets)
        self._optimizer.zero_grad()
        loss.backward()
        self._optimizer.step()


if __name__ == "__main__":
    agent = DQNAgent({"name": "SimpleMLP", "kwargs": {}}, obs_dim=4, act_dim=2, device="cuda")
    print(agent.act(np.zeros(4, dtype=np.float32)))
