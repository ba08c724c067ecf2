from .rxn_model_morgan import Multitask_Multilabel, ReactionModel_LWTemp

__all__ = [
    'Multitask_Multilabel',
    'ReactionModel_LWTemp',
]
