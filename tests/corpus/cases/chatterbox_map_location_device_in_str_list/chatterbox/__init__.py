from .vc import ChatterboxVC
