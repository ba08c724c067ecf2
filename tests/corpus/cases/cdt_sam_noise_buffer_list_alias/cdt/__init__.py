from .utils.Settings import SETTINGS
from . import causality
