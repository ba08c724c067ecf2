"""Execution of jobs on several devices. Stand-in: the worker processes of the
real module are run one after the other, each with the device it pops."""
from .Settings import SETTINGS


def parallel_run(function, *args, nruns=None, njobs=None, gpus=None, **kwargs):
    njobs = SETTINGS.get_default(njobs=njobs)
    gpus = SETTINGS.get_default(gpu=gpus)
    devices = [f'cuda:{i%gpus}' if gpus != 0 else 'cpu' for i in range(njobs)]
    results = []
    for i in range(nruns):
        device = devices[i % len(devices)]
        results.append(function(*args, **kwargs, device=device, idx=i))
    return results
