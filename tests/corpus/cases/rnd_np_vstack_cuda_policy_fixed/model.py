import torch.nn as nn


class CnnActorCriticNetwork(nn.Module):
    def __init__(self, input_size, output_size, use_noisy_net=False):
        super(CnnActorCriticNetwork, self).__init__()
        # the conv stack is replaced by one linear layer on the flattened frames
        self.feature = nn.Sequential(nn.Flatten(), nn.Linear(4 * 84 * 84, 32), nn.ReLU())
        self.actor = nn.Linear(32, output_size)
        self.critic_ext = nn.Linear(32, 1)
        self.critic_int = nn.Linear(32, 1)

    def forward(self, state):
        x = self.feature(state)
        policy = self.actor(x)
        value_ext = self.critic_ext(x)
        value_int = self.critic_int(x)
        return policy, value_ext, value_int


class RNDModel(nn.Module):
    def __init__(self, input_size, output_size):
        super(RNDModel, self).__init__()
        self.predictor = nn.Sequential(nn.Flatten(), nn.Linear(84 * 84, 16))
        self.target = nn.Sequential(nn.Flatten(), nn.Linear(84 * 84, 16))
        for param in self.target.parameters():
            param.requires_grad = False

    def forward(self, next_obs):
        target_feature = self.target(next_obs)
        predict_feature = self.predictor(next_obs)
        return predict_feature, target_feature
