from .settings import cfg
