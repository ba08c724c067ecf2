import numpy as np
import torch

from actor_critic import MADDPG_Critic, MATD3_Critic


class MADDPGPolicy:
    def __init__(self, config, policy_config, td3=False):
        self.device = config["device"]
        self.args = config["args"]
        critic_class = MATD3_Critic if td3 else MADDPG_Critic
        self.critic = critic_class(self.args, policy_config["cent_obs_dim"], policy_config["cent_act_dim"], self.device)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=self.args.lr)

    def q_values(self, cent_obs: np.ndarray, cent_act: np.ndarray):
        return self.critic(cent_obs, cent_act)


def make_policy(args, cent_obs_dim, cent_act_dim):
    config = {"device": torch.device("cuda:0"), "args": args}
    return MADDPGPolicy(config, {"cent_obs_dim": cent_obs_dim, "cent_act_dim": cent_act_dim}, td3=True)
