# Author: baichen318@gmail.com


from typing import NoReturn
from solver import create_solver
from problem import create_problem


def boom_explorer(configs: dict) -> NoReturn:
    problem = create_problem(configs)
    solver = create_solver(problem)

    solver.initialize()
    for step in range(configs["bo"]["max-bo-steps"]):
        print("Iter {}".format(step + 1))
        solver.fit_dkl_gp()
        solver.eipv_suggest()
    solver.report()
