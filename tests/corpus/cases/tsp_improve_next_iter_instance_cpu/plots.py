import matplotlib.pyplot as plt
import torch


def plot_tour(city_tour, coordinates):
    plt.figure(figsize=(8, 6))
    index = torch.cat((city_tour.view(-1, 1), city_tour.view(-1, 1)[None, 0]), 0).repeat(1, 2).long()
    xy = torch.gather(coordinates, 0, index)
    plt.plot(xy[:, 0], xy[:, 1], color="black", zorder=1)
    plt.scatter(xy[:, 0], xy[:, 1], marker="H", s=55, c="blue", zorder=2)
    plt.show()
