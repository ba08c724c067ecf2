class Registry:
    def __init__(self, name):
        self.name = name
        self._module_dict = {}

    def register_module(self):
        def _register(cls):
            self._module_dict[cls.__name__] = cls
            return cls
        return _register

    def get(self, key):
        return self._module_dict[key]


def build_from_cfg(cfg, registry, default_args=None):
    args = dict(cfg)
    obj_cls = registry.get(args.pop('type'))
    if default_args:
        for name, value in default_args.items():
            args.setdefault(name, value)
    return obj_cls(**args)
