from .evaluation_utils import sort_string, truncate_features, truncate_candidates
from .evaluation_utils import MultiTask_Evaluator, Ranking_Evaluator, ReactionContextPredictor

__all__ = [
    'sort_string',
    'truncate_features',
    'truncate_candidates',
    'MultiTask_Evaluator',
    'Ranking_Evaluator',
    'ReactionContextPredictor'
]
