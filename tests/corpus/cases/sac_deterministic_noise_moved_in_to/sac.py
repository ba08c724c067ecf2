import torch
from torch.optim import Adam

from model import DeterministicPolicy, GaussianPolicy


class SAC(object):
    def __init__(self, num_inputs, action_space, args):
        self.policy_type = args.policy
        self.device = torch.device("cuda" if args.cuda else "cpu")
        if self.policy_type == "Gaussian":
            self.policy = GaussianPolicy(num_inputs, action_space.shape[0], args.hidden_size, action_space).to(self.device)
        else:
            self.alpha = 0
            self.policy = DeterministicPolicy(num_inputs, action_space.shape[0], args.hidden_size, action_space).to(self.device)
        self.policy_optim = Adam(self.policy.parameters(), lr=args.lr)

    def select_action(self, state, eval=False):
        state = torch.FloatTensor(state).to(self.device).unsqueeze(0)
        if eval == False:
            action, _, _ = self.policy.sample(state)
        else:
            _, _, action = self.policy.sample(state)
        return action.detach().cpu().numpy()[0]
