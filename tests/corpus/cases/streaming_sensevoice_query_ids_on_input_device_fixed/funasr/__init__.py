from .auto.auto_model import AutoModel  # noqa
