from . import functional, transforms
