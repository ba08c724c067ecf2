import json
import time
from ast import literal_eval


class SegmentronConfig(dict):
    """Attribute-style nested config (yaml files in SegmenTron, json here)."""

    def __getattr__(self, key):
        if key not in self:
            self[key] = SegmentronConfig()
        return self[key]

    def __setattr__(self, key, value):
        t = self
        keylist = key.split(".")
        for k in keylist[:-1]:
            t = t.__getattr__(k)
        if isinstance(value, str):
            try:
                value = literal_eval(value)
            except (ValueError, SyntaxError):
                pass
        t[keylist[-1]] = value

    def update_from_other_cfg(self, other, prefix=""):
        for key, value in other.items():
            full = "{}.{}".format(prefix, key) if prefix else key
            if isinstance(value, dict):
                self.update_from_other_cfg(value, full)
            else:
                self.__setattr__(full, value)

    def update_from_list(self, config_list):
        assert len(config_list) % 2 == 0
        for key, value in zip(config_list[0::2], config_list[1::2]):
            self.__setattr__(key, value)

    def update_from_file(self, config_file):
        with open(config_file) as f:
            self.update_from_other_cfg(json.load(f))

    def check_and_freeze(self):
        self.TIME_STAMP = time.strftime('%Y-%m-%d-%H-%M', time.localtime())
