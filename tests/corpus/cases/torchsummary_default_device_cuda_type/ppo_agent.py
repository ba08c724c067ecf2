import torch
import torch.nn as nn
import torch.nn.functional as F
import torchsummary


class NatureConvBody(nn.Module):
    def __init__(self, in_channels=4):
        super().__init__()
        self.feature_dim = 512
        self.conv1 = nn.Conv2d(in_channels, 32, kernel_size=8, stride=4)
        self.conv2 = nn.Conv2d(32, 64, kernel_size=4, stride=2)
        self.conv3 = nn.Conv2d(64, 64, kernel_size=3, stride=1)
        self.fc4 = nn.Linear(7 * 7 * 64, self.feature_dim)

    def forward(self, x):
        y = F.relu(self.conv1(x))
        y = F.relu(self.conv2(y))
        y = F.relu(self.conv3(y))
        return F.relu(self.fc4(y.view(y.size(0), -1)))


class CategoricalActorCriticNet(nn.Module):
    def __init__(self, action_dim, phi_body):
        super().__init__()
        self.phi_body = phi_body
        self.fc_action = nn.Linear(phi_body.feature_dim, action_dim)
        self.fc_critic = nn.Linear(phi_body.feature_dim, 1)

    def forward(self, obs):
        phi = self.phi_body(obs)
        return self.fc_action(phi), self.fc_critic(phi)


class PPOAgent:
    def __init__(self, config):
        self.config = config
        self.network = config.network_fn()
        torchsummary.summary(self.network, (4, 84, 84))
        self.opt = config.optimizer_fn(self.network.parameters())


class Config:
    network_fn = staticmethod(lambda: CategoricalActorCriticNet(6, NatureConvBody()))
    optimizer_fn = staticmethod(lambda params: torch.optim.RMSprop(params, 0.00025, alpha=0.99, eps=1e-5))


if __name__ == "__main__":
    agent = PPOAgent(Config())
