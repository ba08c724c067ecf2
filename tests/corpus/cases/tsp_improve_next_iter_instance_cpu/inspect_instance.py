import torch
from torch.utils.data import DataLoader

from plots import plot_tour
from problem_tsp import TSP, TSPDataset
from utils import move_to

use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
problem = TSP(p_size=20)
val_dataset = TSPDataset(size=20, num_samples=1000)

# Get one TSP instance and one initial solution
instance = next(iter(DataLoader(val_dataset, batch_size=1)))
solution = move_to(problem.get_initial_solutions("seq", instance), device)
cost = problem.get_costs(instance, solution)
print(solution, cost)
plot_tour(solution, instance[0])
