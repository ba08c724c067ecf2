"""DQN on CartPole (book chapter 4.3)."""
import argparse

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, dim_state, num_action):
        super().__init__()
        self.fc1 = nn.Linear(dim_state, 64)
        self.fc2 = nn.Linear(64, 32)
        self.fc3 = nn.Linear(32, num_action)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class DQN:
    def __init__(self, dim_state=None, num_action=None, discount=0.9):
        self.discount = discount
        self.Q = QNet(dim_state, num_action)
        self.target_Q = QNet(dim_state, num_action)
        self.target_Q.load_state_dict(self.Q.state_dict())

    def get_action(self, state):
        qvals = self.Q(state)
        return qvals.argmax()

    def compute_loss(self, s_batch, a_batch, r_batch, d_batch, next_s_batch):
        qvals = self.Q(s_batch).gather(1, a_batch.unsqueeze(1)).squeeze()
        next_qvals, _ = self.target_Q(next_s_batch).detach().max(dim=1)
        return F.mse_loss(r_batch + self.discount * next_qvals * (1 - d_batch), qvals)


def train(args, env, agent):
    optimizer = torch.optim.Adam(agent.Q.parameters(), lr=args.lr)
    buffer = []
    epsilon = 1
    state, _ = env.reset(seed=args.seed)
    for i in range(args.max_steps):
        if np.random.rand() < epsilon or i < args.warmup_steps:
            action = env.action_space.sample()
        else:
            action = agent.get_action(torch.from_numpy(state))
            action = action.item()
        next_state, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        buffer.append((state, action, reward, done, next_state))
        state = next_state if not done else env.reset()[0]
        epsilon = max(epsilon - 1e-4, 0.1)

        if i > args.warmup_steps:
            batch = [buffer[j] for j in np.random.randint(len(buffer), size=args.batch_size)]
            bs, ba, br, bd, bns = (np.array(column) for column in zip(*batch))
            bs = torch.tensor(bs, dtype=torch.float32)
            ba = torch.tensor(ba, dtype=torch.long)
            br = torch.tensor(br, dtype=torch.float32)
            bd = torch.tensor(bd, dtype=torch.float32)
            bns = torch.tensor(bns, dtype=torch.float32)
            loss = agent.compute_loss(bs, ba, br, bd, bns)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", default=1e-3, type=float)
    parser.add_argument("--batch_size", default=32, type=int)
    parser.add_argument("--max_steps", default=100_000, type=int)
    parser.add_argument("--warmup_steps", default=10_000, type=int)
    parser.add_argument("--seed", default=42, type=int)
    parser.add_argument("--no_cuda", action="store_true")
    args = parser.parse_args()
    args.device = torch.device("cuda" if torch.cuda.is_available() and not args.no_cuda else "cpu")

    env = gym.make("CartPole-v1")
    agent = DQN(dim_state=4, num_action=2, discount=0.99)
    agent.Q.to(args.device)
    agent.target_Q.to(args.device)
    train(args, env, agent)


if __name__ == "__main__":
    main()
