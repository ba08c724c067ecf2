import re


def listify(o):
    if o is None:
        return []
    if isinstance(o, list):
        return o
    if isinstance(o, (str, tuple)):
        return [o]
    return list(o)


def camel2snake(name):
    s1 = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z0-9])([A-Z])", r"\1_\2", s1).lower()
