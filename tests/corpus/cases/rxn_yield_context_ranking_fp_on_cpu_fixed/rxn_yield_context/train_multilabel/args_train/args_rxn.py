"""Arguments of the reaction condition models (stored with each checkpoint)."""
from typing_extensions import Literal

import torch
from tap import Tap  # pip install typed-argument-parser


class TrainArgs_rxn(Tap):
    """Training arguments of the candidate generation and ranking models."""

    dataset_type: Literal['regression', 'classification', 'multiclass', 'multilabel'] = 'multilabel'
    reagent_num_classes: int = 0
    solvent_num_classes: int = 0
    seed: int = 0
    fp_type: Literal['morgan', 'drfp'] = 'morgan'
    fpsize: int = 4096
    radius: int = 2
    batch_size: int = 128
    dropout: float = 0.2
    activation: str = 'ReLU'
    loss: str = 'Focal'
    alpha: float = 0.5
    gamma: float = 2.0
    # multi-task (candidate generation) model
    hidden_share_size: int = 512
    hidden_reagent_size: int = 300
    hidden_solvent_size: int = 100
    num_shared_layer: int = 1
    num_last_layer: int = 1
    # listwise ranking model
    h1_size_rxn_fp: int = 800
    h_size_solvent: int = 100
    h_size_reagent: int = 200
    h2_size: int = 300
    device: torch.device = torch.device('cpu')
