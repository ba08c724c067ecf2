import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class RecDQN(nn.Module):
    """Recursive DQN for the MMGEnv: the recursion runs over the target ships inside one observation."""

    def __init__(self, num_actions, num_obs_OS=7, num_obs_TS=6) -> None:
        super(RecDQN, self).__init__()
        self.num_actions = num_actions
        self.num_obs_OS = num_obs_OS
        self.num_obs_TS = num_obs_TS

        # own ship and goal
        self.denseOS_inner0 = nn.Linear(num_obs_OS, 64)
        self.LSTM_inner0 = nn.LSTM(input_size=num_obs_TS, hidden_size=64, num_layers=1, batch_first=True)
        self.denseTS_inner0 = nn.Linear(64, 64)

        # after combining both
        self.post_comb_dense1 = nn.Linear(128, 64)
        self.post_comb_dense2 = nn.Linear(64, num_actions)

    def _inner_rec(self, s):
        s_OS = s[:, :self.num_obs_OS]
        s_TS = s[:, self.num_obs_OS:]
        first_dim = s_TS.shape[0]

        # target ships in descending priority, nan-padded at the end
        s_TS = s_TS.view(first_dim, -1, self.num_obs_TS)
        N_TS_obs = torch.sum(torch.logical_not(torch.isnan(s_TS))[:, :, 0], dim=1)
        if torch.sum(N_TS_obs == 0).item() != 0:
            raise Exception("There is no TS, something went wrong here!")

        h_idx = copy.deepcopy(N_TS_obs)
        h_idx -= 1
        s_TS[torch.isnan(s_TS)] = 0.0

        x_OS = F.relu(self.denseOS_inner0(s_OS))
        x_TS, (_, _) = self.LSTM_inner0(s_TS)
        x_TS = x_TS[torch.arange(x_TS.size(0)), h_idx]
        x_TS = F.relu(self.denseTS_inner0(x_TS))
        return torch.cat([x_OS, x_TS], dim=1)

    def forward(self, s) -> tuple:
        x = self._inner_rec(s)
        x = F.relu(self.post_comb_dense1(x))
        return self.post_comb_dense2(x)


class LSTMRecDQN(RecDQN):
    """LSTM-Recursive DQN for the MMGEnv: the inner recursion over target ships, an outer LSTM over the last
    three observations."""

    def __init__(self, num_actions, use_past_actions=False, num_obs_OS=7, num_obs_TS=6) -> None:
        super(LSTMRecDQN, self).__init__(num_actions=num_actions, num_obs_OS=num_obs_OS, num_obs_TS=num_obs_TS)

        if use_past_actions:
            raise NotImplementedError("Using past actions for LSTMRecDQN is not available yet.")

        del self.post_comb_dense1
        del self.post_comb_dense2

        # t-2
        self.denseOS_inner2 = nn.Linear(num_obs_OS, 64)
        self.LSTM_inner2 = nn.LSTM(input_size=num_obs_TS, hidden_size=64, num_layers=1, batch_first=True)
        self.denseTS_inner2 = nn.Linear(64, 64)

        # t-1
        self.denseOS_inner1 = nn.Linear(num_obs_OS, 64)
        self.LSTM_inner1 = nn.LSTM(input_size=num_obs_TS, hidden_size=64, num_layers=1, batch_first=True)
        self.denseTS_inner1 = nn.Linear(64, 64)

        # over the sequence of observations
        self.LSTM_outer = nn.LSTM(input_size=128, hidden_size=64, num_layers=1, batch_first=True)

        self.PI_dense1 = nn.Linear(64, 64)
        self.PI_dense2 = nn.Linear(64, num_actions)

    def forward(self, s, s_hist, a_hist, hist_len) -> tuple:
        # x_tilde is what the outer LSTM reads
        batch_size, history_length, _ = s_hist.shape
        x_tilde = torch.zeros((batch_size, history_length + 1, 128))

        # s_{t-2} and s_{t-1}; histories may be incomplete
        s_t2 = s_hist[:, 0, :]
        s_t2[hist_len < 2, :] = 0.0

        t1_idx = hist_len - 1
        t1_idx[t1_idx < 0] = 0

        s_t1 = s_hist[torch.arange(batch_size), t1_idx, :]
        s_t1[hist_len < 1, :] = 0.0

        x_tilde[:, 0, :] = self._inner_rec(s_t2, time=2)
        x_tilde[:, 1, :] = self._inner_rec(s_t1, time=1)
        x_tilde[:, 2, :] = self._inner_rec(s, time=0)

        # roll according to the history length
        if batch_size == 1:
            x_tilde_f = torch.roll(x_tilde, shifts=hist_len.item() - 2, dims=1)
        else:
            if sum(hist_len != 2):
                x_tilde_f = torch.zeros_like(x_tilde)
                for b_idx in range(batch_size):
                    x_tilde_f[b_idx, :, :] = torch.roll(x_tilde[b_idx, :, :], shifts=hist_len[b_idx].item() - 2, dims=0)
            else:
                x_tilde_f = x_tilde

        extracted_mem, (_, _) = self.LSTM_outer(x_tilde_f)

        hidden_mem = extracted_mem[torch.arange(batch_size), hist_len]
        x = F.relu(self.PI_dense1(hidden_mem))
        return self.PI_dense2(x)

    def _inner_rec(self, s, time):
        assert time in [0, 1, 2], "Unknown time step."

        if time == 0:
            return super()._inner_rec(s)

        s_OS = s[:, :self.num_obs_OS]
        s_TS = s[:, self.num_obs_OS:]
        first_dim = s_TS.shape[0]

        s_TS = s_TS.view(first_dim, -1, self.num_obs_TS)
        N_TS_obs = torch.sum(torch.logical_not(torch.isnan(s_TS))[:, :, 0], dim=1)
        if torch.sum(N_TS_obs == 0).item() != 0:
            raise Exception("There is no TS, something went wrong here!")

        h_idx = copy.deepcopy(N_TS_obs)
        h_idx -= 1
        s_TS[torch.isnan(s_TS)] = 0.0

        if time == 1:
            x_OS = F.relu(self.denseOS_inner1(s_OS))
            x_TS, (_, _) = self.LSTM_inner1(s_TS)
            x_TS = x_TS[torch.arange(x_TS.size(0)), h_idx]
            x_TS = F.relu(self.denseTS_inner1(x_TS))

        elif time == 2:
            x_OS = F.relu(self.denseOS_inner2(s_OS))
            x_TS, (_, _) = self.LSTM_inner2(s_TS)
            x_TS = x_TS[torch.arange(x_TS.size(0)), h_idx]
            x_TS = F.relu(self.denseTS_inner2(x_TS))

        return torch.cat([x_OS, x_TS], dim=1)
