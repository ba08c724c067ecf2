from .majority_voting import MajorityVoting
