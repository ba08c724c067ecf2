"""
Data corruption helpers (missing completely at random), in torch.
"""
import torch


def masked_fill(X, mask, val):
    return torch.where(mask.bool(), torch.full_like(X, val), X)


def mcar(X, rate, nan=0):
    """ Create MCAR missing values in X; returns X_intact, X, missing_mask, indicating_mask
    (all on X's device). """
    X_intact = torch.nan_to_num(X, nan=nan)
    original_missing_mask = (~torch.isnan(X)).float()
    artificial = (torch.rand_like(X_intact) < rate).float()
    missing_mask = original_missing_mask * (1 - artificial)
    indicating_mask = original_missing_mask - missing_mask
    X = masked_fill(X, 1 - missing_mask, nan)
    return X_intact, X, missing_mask, indicating_mask
