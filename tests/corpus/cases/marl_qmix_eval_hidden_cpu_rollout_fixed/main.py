from agent import Agents
from config import Config
from utils import RolloutWorker, StarCraft2EnvStub


def train():
    conf = Config()
    env = StarCraft2EnvStub()
    conf.set_env_info(env.get_env_info())
    agents = Agents(conf)
    rollout_worker = RolloutWorker(env, agents, conf)
    for epoch in range(conf.n_epochs):
        for episode_idx in range(conf.n_eposodes):
            episode_reward = rollout_worker.generate_episode(episode_idx)
        print("epoch", epoch, "reward", round(episode_reward, 2))


if __name__ == "__main__":
    train()
