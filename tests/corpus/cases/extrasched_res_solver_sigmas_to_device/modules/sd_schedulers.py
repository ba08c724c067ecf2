from collections import namedtuple

Scheduler = namedtuple("Scheduler", ["name", "label", "function"])

schedulers = []
schedulers_map = {}
