"""Stand-in for the mmcv pieces MI-AOD uses: Config (a python config file read
into attribute access) and mkdir_or_exist."""
import os
import runpy


class Config(dict):
    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__

    @staticmethod
    def fromfile(path):
        values = {k: v for k, v in runpy.run_path(path).items() if not k.startswith('__')}
        return Config({k: Config(v) if isinstance(v, dict) else v for k, v in values.items()})


def mkdir_or_exist(path):
    os.makedirs(path, exist_ok=True)
