"""Behavioural cloning (imitation's algorithms/bc.py), with the two helpers it takes from
stable-baselines3 and imitation.util, and the policy kind the issue trained: an actor-critic
policy with gSDE and a squashed (tanh) output, whose distribution has no entropy formula."""
import dataclasses
from typing import Optional, Union

import numpy as np
import torch as th
from torch import nn


def get_device(device: Union[th.device, str] = "auto") -> th.device:
    """stable-baselines3's device choice: 'auto' means CUDA when there is one."""
    if device == "auto":
        device = "cuda"
    device = th.device(device)
    if device.type == th.device("cuda").type and not th.cuda.is_available():
        return th.device("cpu")
    return device


def safe_to_tensor(array, **kwargs) -> th.Tensor:
    """imitation.util.safe_to_tensor: a tensor view of a NumPy array (or a moved tensor)."""
    if isinstance(array, th.Tensor):
        return array.to(**kwargs)
    return th.as_tensor(array, **kwargs)


class SquashedSDEPolicy(nn.Module):
    """Stands for an ActorCriticPolicy with use_sde=True and squash_output=True: the tanh
    bijector leaves the action distribution without an entropy, so evaluate_actions gives None."""

    def __init__(self, obs_dim: int, act_dim: int):
        super().__init__()
        self.mlp_extractor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.action_net = nn.Linear(64, act_dim)
        self.value_net = nn.Linear(64, 1)
        self.log_std = nn.Parameter(th.zeros(act_dim))

    @property
    def device(self) -> th.device:
        for param in self.parameters():
            return param.device
        return get_device("cpu")

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor):
        latent = self.mlp_extractor(obs)
        mean = self.action_net(latent)
        gaussian = th.distributions.Normal(mean, self.log_std.exp())
        pre_tanh = th.atanh(actions.clamp(-0.999, 0.999))
        log_prob = gaussian.log_prob(pre_tanh).sum(-1) - th.log(1 - actions.pow(2) + 1e-6).sum(-1)
        values = self.value_net(latent)
        return values, log_prob, None


@dataclasses.dataclass(frozen=True)
class BCTrainingMetrics:
    """Container for the different components of behavior cloning loss."""

    neglogp: th.Tensor
    entropy: Optional[th.Tensor]
    ent_loss: th.Tensor  # set to 0 if entropy is None
    prob_true_act: th.Tensor
    l2_norm: th.Tensor
    l2_loss: th.Tensor
    loss: th.Tensor


@dataclasses.dataclass(frozen=True)
class BehaviorCloningLossCalculator:
    """Functor to compute the loss used in Behavior Cloning."""

    ent_weight: float
    l2_weight: float

    def __call__(self, policy, obs, acts) -> BCTrainingMetrics:
        tensor_obs = safe_to_tensor(obs)
        acts = safe_to_tensor(acts)

        (_, log_prob, entropy) = policy.evaluate_actions(tensor_obs, acts)
        prob_true_act = th.exp(log_prob).mean()
        log_prob = log_prob.mean()
        entropy = entropy.mean() if entropy is not None else None

        l2_norms = [th.sum(th.square(w)) for w in policy.parameters()]
        l2_norm = sum(l2_norms) / 2  # divide by 2 to cancel with gradient of square
        assert isinstance(l2_norm, th.Tensor)

        ent_loss = -self.ent_weight * (entropy if entropy is not None else th.zeros(1, device=log_prob.device))
        neglogp = -log_prob
        l2_loss = self.l2_weight * l2_norm
        loss = neglogp + ent_loss + l2_loss

        return BCTrainingMetrics(
            neglogp=neglogp,
            entropy=entropy,
            ent_loss=ent_loss,
            prob_true_act=prob_true_act,
            l2_norm=l2_norm,
            l2_loss=l2_loss,
            loss=loss,
        )


class BC:
    """Recovers a policy via supervised learning from observation-action pairs."""

    def __init__(self, *, policy, demonstrations, batch_size: int = 32,
                 ent_weight: float = 1e-3, l2_weight: float = 0.0,
                 device: Union[str, th.device] = "auto"):
        self.batch_size = batch_size
        self.demonstrations = demonstrations
        self._policy = policy.to(get_device(device))
        self.optimizer = th.optim.Adam(self.policy.parameters())
        self.loss_calculator = BehaviorCloningLossCalculator(ent_weight, l2_weight)

    @property
    def policy(self):
        return self._policy

    def train(self, *, n_batches: int):
        obs, acts = self.demonstrations["obs"], self.demonstrations["acts"]
        for batch_num in range(n_batches):
            start = (batch_num * self.batch_size) % len(obs)
            batch_obs = obs[start:start + self.batch_size]
            batch_acts = acts[start:start + self.batch_size]
            obs_tensor = safe_to_tensor(batch_obs, device=self.policy.device)
            acts_tensor = safe_to_tensor(batch_acts, device=self.policy.device)
            training_metrics = self.loss_calculator(self.policy, obs_tensor, acts_tensor)

            self.optimizer.zero_grad()
            training_metrics.loss.backward()
            self.optimizer.step()


if __name__ == "__main__":
    # the issue: BC pretraining of a policy trained with use_sde=True, on a GPU machine
    rng = np.random.default_rng(0)
    demonstrations = {
        "obs": rng.standard_normal((256, 8)).astype(np.float32),
        "acts": np.tanh(rng.standard_normal((256, 2))).astype(np.float32),
    }
    policy = SquashedSDEPolicy(obs_dim=8, act_dim=2)
    bc_trainer = BC(policy=policy, demonstrations=demonstrations, device="auto")
    bc_trainer.train(n_batches=4)
