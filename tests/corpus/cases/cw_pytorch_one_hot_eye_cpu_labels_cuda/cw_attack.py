"""Carlini-Wagner L2 attack (the repository's CW notebook as a script). A small CNN and random images stand in
for the pretrained Inception v3 and the ImageNet samples."""
import torch
import torch.nn as nn
import torch.optim as optim

use_cuda = True
device = torch.device("cuda" if use_cuda and torch.cuda.is_available() else "cpu")


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.fc = nn.Linear(16 * 16, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


# CW-L2 Attack
# Based on the paper, i.e. not exact same version of the code on https://github.com/carlini/nn_robust_attacks
# (1) Binary search method for c, (2) Optimization on tanh space, (3) Choosing method best l2 adversaries is NOT IN THIS CODE.
def cw_l2_attack(model, images, labels, targeted=False, c=1e-4, kappa=0, max_iter=1000, learning_rate=0.01):

    images = images.to(device)
    labels = labels.to(device)

    # Define f-function
    def f(x):

        outputs = model(x)
        one_hot_labels = torch.eye(len(outputs[0]))[labels].to(device)

        i, _ = torch.max((1-one_hot_labels)*outputs, dim=1)
        j = torch.masked_select(outputs, one_hot_labels.bool())

        # If targeted, optimize for making the other class most likely
        if targeted:
            return torch.clamp(i-j, min=-kappa)

        # If untargeted, optimize for making the other class most likely
        else:
            return torch.clamp(j-i, min=-kappa)

    w = torch.zeros_like(images, requires_grad=True).to(device)

    optimizer = optim.Adam([w], lr=learning_rate)

    prev = 1e10

    for step in range(max_iter):

        a = 1/2*(nn.Tanh()(w) + 1)

        loss1 = nn.MSELoss(reduction='sum')(a, images)
        loss2 = torch.sum(c*f(a))

        cost = loss1 + loss2

        optimizer.zero_grad()
        cost.backward()
        optimizer.step()

        # Early Stop when loss does not converge.
        if step % (max_iter//10) == 0:
            if cost > prev:
                print('Attack Stopped due to CONVERGENCE....')
                return a
            prev = cost

        print('- Learning Progress : %2.2f %%        ' % ((step+1)/max_iter*100), end='\r')

    attack_images = 1/2*(nn.Tanh()(w) + 1)

    return attack_images


if __name__ == "__main__":
    model = SmallCNN().to(device)
    model.eval()
    images = torch.rand(4, 3, 32, 32)
    labels = torch.randint(0, 10, (4,))

    print("Attack Image & Predicted Label")
    attacked = cw_l2_attack(model, images, labels, targeted=False, c=0.1, max_iter=20)
    outputs = model(attacked)
    _, pre = torch.max(outputs.data, 1)
    print()
    print((pre.cpu() == labels).float().mean().item())
