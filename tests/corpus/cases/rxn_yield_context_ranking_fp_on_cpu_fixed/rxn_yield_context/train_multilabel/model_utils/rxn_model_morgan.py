# -*- coding: utf-8 -*-
import torch
import torch.nn as nn

from rxn_yield_context.train_multilabel.args_train import TrainArgs_rxn
from rxn_yield_context.train_multilabel.nn_utils import get_activation_function, initialize_weights


class Multitask_Multilabel(nn.Module):
    """First stage: multi-label prediction of the candidate solvents and reagents of a reaction."""

    def __init__(self, args: TrainArgs_rxn):
        super(Multitask_Multilabel, self).__init__()

        self.reagent_output_size = args.reagent_num_classes
        self.solvent_output_size = args.solvent_num_classes
        self.sigmoid = nn.Sigmoid()
        self.create_ffn(args)
        self.device = args.device
        self.batch_size = args.batch_size
        initialize_weights(self)
        self.log_var_s = torch.ones((1,), requires_grad=True, device=args.device)  # solvent task
        self.log_var_r = torch.ones((1,), requires_grad=True, device=args.device)  # reagent task

    def create_ffn(self, args: TrainArgs_rxn) -> None:
        """Creates the shared and the two task-specific feed-forward stacks."""
        if args.fp_type == 'morgan':
            first_linear_dim = args.fpsize*2
        elif args.fp_type == 'drfp':
            first_linear_dim = args.fpsize
        dropout = nn.Dropout(args.dropout)
        activation = get_activation_function(args.activation)

        ffn_share = [
            nn.Linear(first_linear_dim, args.hidden_share_size),
            activation,
            dropout,
        ]
        append = [nn.Linear(args.hidden_share_size, args.hidden_share_size),
                  activation,
                  dropout]*(args.num_shared_layer-1)
        ffn_share += append

        ffn_reagent = [
            nn.Linear(args.hidden_share_size, args.hidden_reagent_size),
            activation,
            dropout,
        ]
        append = [nn.Linear(args.hidden_reagent_size, args.hidden_reagent_size),
                  activation,
                  dropout]*(args.num_last_layer-1)
        ffn_reagent += append
        ffn_reagent += [nn.Linear(args.hidden_reagent_size, self.reagent_output_size)]

        ffn_solvent = [
            nn.Linear(args.hidden_share_size, args.hidden_solvent_size),
            activation,
            dropout,
        ]
        append_s = [nn.Linear(args.hidden_solvent_size, args.hidden_solvent_size),
                    activation,
                    dropout]*(args.num_last_layer-1)
        ffn_solvent += append_s
        ffn_solvent += [nn.Linear(args.hidden_solvent_size, self.solvent_output_size)]

        self.ffn_share = nn.Sequential(*ffn_share)
        self.ffn_reagent = nn.Sequential(*ffn_reagent)
        self.ffn_solvent = nn.Sequential(*ffn_solvent)

    def forward(self, fp: torch.Tensor) -> torch.FloatTensor:
        output_share = self.ffn_share(fp)
        output_reagent = self.sigmoid(self.ffn_reagent(output_share))
        output_solvent = self.sigmoid(self.ffn_solvent(output_share))

        return output_solvent, output_reagent


class ReactionModel_LWTemp(nn.Module):
    """Second stage: ranks the candidate reaction conditions listwise and predicts a temperature for each."""

    def __init__(self, args: TrainArgs_rxn, len_solvent: int = 0, len_reagent: int = 0):
        super(ReactionModel_LWTemp, self).__init__()
        self.len_solvent = len_solvent
        self.len_reagent = len_reagent
        self.len_context = len_solvent + len_reagent
        self.output_size = 1
        self.relu = nn.ReLU()
        self.device = args.device

        self.create_ffn_share_layer(args)
        self.create_ffn_ranking_layer(args)
        self.create_ffn_temperature_layer(args)

        initialize_weights(self)
        self.log_var_rank = torch.ones((1,), requires_grad=True, device=args.device)  # ranking task
        self.log_var_temp = torch.ones((1,), requires_grad=True, device=args.device)  # temperature regression task

    def create_ffn_share_layer(self, args: TrainArgs_rxn) -> None:
        """The first layer for each input: reaction fingerprint, solvent selection, reagent selection."""
        first_linear_dim = args.fpsize*2
        dropout = nn.Dropout(args.dropout)
        activation = get_activation_function(args.activation)

        ffn_h1_rxn_fp = [nn.Linear(first_linear_dim, args.h1_size_rxn_fp), activation, dropout]
        ffn_h1_solvent = [nn.Linear(self.len_solvent, args.h_size_solvent), activation, dropout]
        ffn_h1_reagent = [nn.Linear(self.len_reagent, args.h_size_reagent), activation, dropout]

        self.ffn1_rxn_fp = nn.Sequential(*ffn_h1_rxn_fp)
        self.ffn_h1_solvent = nn.Sequential(*ffn_h1_solvent)
        self.ffn_h1_reagent = nn.Sequential(*ffn_h1_reagent)

    def create_ffn_ranking_layer(self, args: TrainArgs_rxn) -> None:
        dropout = nn.Dropout(args.dropout)
        activation = get_activation_function(args.activation)

        h2_size_rxn_fp_input = args.h1_size_rxn_fp + args.h_size_solvent + args.h_size_reagent

        ffn_final = [nn.Linear(h2_size_rxn_fp_input, args.h2_size), activation, dropout]
        append = [nn.Linear(args.h2_size, args.h2_size), activation, dropout]*(args.num_last_layer-1)
        ffn_final += append
        ffn_final += [nn.Linear(args.h2_size, self.output_size)]
        self.ffn_final_ranking = nn.Sequential(*ffn_final)

    def create_ffn_temperature_layer(self, args: TrainArgs_rxn) -> None:
        dropout = nn.Dropout(args.dropout)
        activation = get_activation_function(args.activation)

        h2_size_rxn_fp_input = args.h1_size_rxn_fp + args.h_size_solvent + args.h_size_reagent

        ffn_final = [nn.Linear(h2_size_rxn_fp_input, args.h2_size), activation, dropout]
        append = [nn.Linear(args.h2_size, args.h2_size), activation, dropout]*(args.num_last_layer-1)
        ffn_final += append
        ffn_final += [nn.Linear(args.h2_size, self.output_size)]
        self.ffn_final_temperature = nn.Sequential(*ffn_final)

    def forward(self, fp: torch.Tensor, condition_solvent: torch.Tensor, condition_reagent: torch.Tensor) -> torch.FloatTensor:
        h1_rxn_fp = self.ffn1_rxn_fp(fp)
        h1_solvent = self.ffn_h1_solvent(condition_solvent)
        h1_reagent = self.ffn_h1_reagent(condition_reagent)

        # [batch_size, slate_size, feature_size]
        h2_input = torch.cat((h1_rxn_fp, h1_solvent, h1_reagent), 2)

        # (1) ranking scores (2) temperature predictions
        return self.ffn_final_ranking(h2_input), self.ffn_final_temperature(h2_input)
