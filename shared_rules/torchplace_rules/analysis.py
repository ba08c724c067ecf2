"""Device-flow analysis (being written: see the next commits)."""


def analyze(tree, src, rules, config):
    return []
