import numpy as np
import torch
from policy import QMIX


class Agents:
    def __init__(self, conf):
        self.conf = conf
        self.device = conf.device
        self.n_actions = conf.n_actions
        self.n_agents = conf.n_agents
        self.state_shape = conf.state_shape
        self.obs_shape = conf.obs_shape
        self.episode_limit = conf.episode_limit

        self.policy = QMIX(conf)

        print("Agents inited!")

    def choose_action(self, obs, last_action, agent_num, availible_actions, epsilon, evaluate=False):
        inputs = obs.copy()
        availible_actions_idx = np.nonzero(availible_actions)[0]
        agents_id = np.zeros(self.n_agents)
        agents_id[agent_num] = 1.

        if self.conf.last_action:
            inputs = np.hstack((inputs, last_action))
        if self.conf.reuse_network:
            inputs = np.hstack((inputs, agents_id))
        hidden_state = self.policy.eval_hidden[:, agent_num, :]

        inputs = torch.tensor(inputs, dtype=torch.float32).unsqueeze(0).to(self.device) # (42,) -> (1,42)
        availible_actions = torch.tensor(availible_actions, dtype=torch.float32).unsqueeze(0).to(self.device)

        # get q value
        q_value, self.policy.eval_hidden[:, agent_num, :] = self.policy.eval_drqn_net(inputs, hidden_state)
        # choose action form q value
        q_value[availible_actions == 0.0] = -float("inf")
        if np.random.uniform() < epsilon:
            action = np.random.choice(availible_actions_idx)
        else:
            action = torch.argmax(q_value)
        return action
