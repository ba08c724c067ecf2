"""Trains an n-gram synthetic reward net on the GPU (ReAgent's Lightning trainer
moves the module and each batch to the device; here that is done by hand)."""
import torch

from reagent.core import types as rlt
from reagent.net_builder.synthetic_reward.ngram_synthetic_reward import NGramSyntheticReward


def create_batch(seq_len, batch_size, state_dim, action_dim, device):
    state = torch.randn(seq_len, batch_size, state_dim, device=device)
    action = torch.randn(seq_len, batch_size, action_dim, device=device)
    valid_step = torch.randint(1, seq_len + 1, (batch_size, 1), device=device)
    reward = torch.randn(batch_size, 1, device=device)
    return rlt.MemoryNetworkInput(
        state=rlt.FeatureData(state), action=action, valid_step=valid_step, reward=reward
    )


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    state_dim, action_dim, seq_len, batch_size = 10, 2, 5, 32
    builder = NGramSyntheticReward(sizes=[256, 128], context_size=3)
    reward_net = builder.build_synthetic_reward_network(state_dim, action_dim)
    reward_net = reward_net.to(device)
    optimizer = torch.optim.Adam(reward_net.parameters(), lr=1e-3)

    for _ in range(100):
        batch = create_batch(seq_len, batch_size, state_dim, action_dim, device)
        pred = reward_net(batch).predicted_reward
        loss = torch.nn.functional.mse_loss(pred, batch.reward)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
