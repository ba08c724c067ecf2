from .SAM import SAM
