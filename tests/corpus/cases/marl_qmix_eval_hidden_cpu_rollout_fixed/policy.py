import torch
from NN import DRQN


class QMIX:
    """QMIX (reduced to the agents' recurrent Q network used when acting; the mixing network and
    learn() are left out)."""

    def __init__(self, conf):
        self.conf = conf
        self.device = self.conf.device
        self.n_actions = self.conf.n_actions
        self.n_agents = self.conf.n_agents
        self.obs_shape = self.conf.obs_shape
        input_shape = self.obs_shape

        # DRQN 的参数
        if self.conf.last_action:
            input_shape += self.n_actions
        if self.conf.reuse_network:
            input_shape += self.n_agents

        # NET
        self.eval_drqn_net = DRQN(input_shape, self.conf).to(self.device)
        self.target_drqn_net = DRQN(input_shape, self.conf).to(self.device)

        # 学习时，为每个agent维护一个eval_hidden, target_hidden
        self.eval_hidden = None
        self.target_hidden = None

    def init_hidden(self, episode_num):
        self.eval_hidden = torch.zeros((episode_num, self.n_agents, self.conf.drqn_hidden_dim), device=self.device)
        self.target_hidden = torch.zeros((episode_num, self.n_agents, self.conf.drqn_hidden_dim), device=self.device)
