import gym
import numpy as np
import torch
import torch.optim as optim

from config import batch_size, device, env_name, initial_exploration, lr, replay_memory_capacity, update_target
from memory import Memory
from model import QNet


def get_action(state, target_net, epsilon, env):
    if np.random.rand() <= epsilon:
        return env.action_space.sample()
    return target_net.get_action(state)


def main():
    env = gym.make(env_name)
    num_inputs, num_actions = env.observation_space.shape[0], env.action_space.n
    online_net = QNet(num_inputs, num_actions)
    target_net = QNet(num_inputs, num_actions)
    target_net.load_state_dict(online_net.state_dict())
    optimizer = optim.Adam(online_net.parameters(), lr=lr)
    online_net.to(device)
    target_net.to(device)
    memory = Memory(replay_memory_capacity)
    epsilon, steps = 1.0, 0

    for e in range(3000):
        done = False
        state = env.reset()
        state = torch.Tensor(state).to(device)
        state = state.unsqueeze(0)
        while not done:
            steps += 1
            action = get_action(state, target_net, epsilon, env)
            next_state, reward, done, _ = env.step(action)
            next_state = torch.Tensor(next_state)
            next_state = next_state.unsqueeze(0)
            mask = 0 if done else 1
            action_one_hot = np.zeros(2)
            action_one_hot[action] = 1
            memory.push(state, next_state, action_one_hot, reward, mask)
            state = next_state

            if steps > initial_exploration:
                epsilon = max(epsilon - 0.00005, 0.1)
                batch = memory.sample(batch_size)
                QNet.train_model(online_net, target_net, optimizer, batch)
                if steps % update_target == 0:
                    target_net.load_state_dict(online_net.state_dict())


if __name__ == "__main__":
    main()
