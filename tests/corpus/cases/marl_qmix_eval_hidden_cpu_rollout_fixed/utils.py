import numpy as np


class StarCraft2EnvStub:
    """Stand-in for SMAC's 3m map: random observations, every action available."""

    def __init__(self, n_agents=3, n_actions=9, obs_shape=30, state_shape=48, episode_limit=10):
        self.n_agents, self.n_actions, self.obs_shape = n_agents, n_actions, obs_shape
        self.state_shape, self.episode_limit = state_shape, episode_limit
        self.t = 0

    def get_env_info(self):
        return {"n_actions": self.n_actions, "state_shape": self.state_shape, "obs_shape": self.obs_shape,
                "n_agents": self.n_agents, "episode_limit": self.episode_limit}

    def reset(self):
        self.t = 0

    def get_obs(self):
        return [np.random.rand(self.obs_shape).astype(np.float32) for _ in range(self.n_agents)]

    def get_avail_agent_actions(self, agent_id):
        return [1] * self.n_actions

    def step(self, actions):
        self.t += 1
        return float(np.random.rand()), self.t >= self.episode_limit, {}


class RolloutWorker:
    def __init__(self, env, agents, conf):
        self.env = env
        self.agents = agents
        self.conf = conf
        self.episode_limit = conf.episode_limit
        self.n_actions = conf.n_actions
        self.n_agents = conf.n_agents

    def generate_episode(self, episode_num=None, evaluate=False):
        self.env.reset()
        terminated = False
        step = 0
        episode_reward = 0
        last_action = np.zeros((self.conf.n_agents, self.conf.n_actions))
        self.agents.policy.init_hidden(1)
        epsilon = 0 if evaluate else self.conf.start_epsilon

        while not terminated and step < self.episode_limit:
            obs = self.env.get_obs()
            actions, actions_onehot = [], []
            for agent_id in range(self.n_agents):
                avail_action = self.env.get_avail_agent_actions(agent_id)
                action = self.agents.choose_action(obs[agent_id], last_action[agent_id], agent_id,
                                                   avail_action, epsilon, evaluate)
                action_onehot = np.zeros(self.conf.n_actions)
                action_onehot[action] = 1
                actions.append(int(action))
                actions_onehot.append(action_onehot)
                last_action[agent_id] = action_onehot
            reward, terminated, _ = self.env.step(actions)
            episode_reward += reward
            step += 1
        return episode_reward
