from .attacker import AttackModel
from .splitnn import SplitNN
