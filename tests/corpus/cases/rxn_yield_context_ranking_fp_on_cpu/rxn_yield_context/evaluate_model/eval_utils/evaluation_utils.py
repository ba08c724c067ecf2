# -*- coding: utf-8 -*-
import torch
import torch.nn.functional as F
import numpy as np
from prettytable import PrettyTable
from itertools import combinations
from rxn_yield_context.train_multilabel.args_train import TrainArgs_rxn
from rxn_yield_context.train_multilabel.model_utils import ReactionModel_LWTemp, Multitask_Multilabel
from rxn_yield_context.train_multilabel.data_utils import create_rxn_Morgan2FP_concatenate, get_classes

import pandas as pd
import os


class ReactionContextPredictor:
    def __init__(self, data_path, candidate_generation_model_path, ranking_model_path, cutoff_solv=0.3, cutoff_reag=0.3, device=None, verbose=True):
        self.verbose = verbose
        self.solvent_classes = get_classes(os.path.join(os.path.join(data_path, 'label_processed'), 'class_names_solvent_labels_processed.pkl'))
        self.reagent_classes = get_classes(os.path.join(os.path.join(data_path, 'label_processed'), 'class_names_reagent_labels_processed.pkl'))

        self.cutoff_solv = cutoff_solv
        self.cutoff_reag = cutoff_reag
        if device == None:
            self.device = torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu')
        else:
            self.device = torch.device(device)
        self.load_candidate_generation_model(candidate_generation_model_path)
        self.load_ranking_model(ranking_model_path)

    def load_candidate_generation_model(self, candidate_generation_model_path):
        MT_Evaluator = MultiTask_Evaluator(self.solvent_classes, self.reagent_classes, cutoff_solv=self.cutoff_solv, cutoff_reag=self.cutoff_reag)
        MT_Evaluator.load_model(candidate_generation_model_path, device=self.device)
        self.candidate_generation_model = MT_Evaluator
        self.fpsize = self.candidate_generation_model.args_MT.fpsize
        self.radius = self.candidate_generation_model.args_MT.radius
        return

    def load_ranking_model(self, ranking_model_path):
        RK_Evaluator = Ranking_Evaluator(self.solvent_classes, self.reagent_classes)
        RK_Evaluator.load_model(ranking_model_path, device=self.device)
        self.ranking_model = RK_Evaluator
        return

    def recommend_reaction_context(self, rxn_smiles_list: list, max_display: int=20) -> pd.DataFrame:
        separate_rxn_smiles_list = [rxn_smiles.split('>>') for rxn_smiles in rxn_smiles_list]
        rxn_fps = [torch.Tensor(create_rxn_Morgan2FP_concatenate(reac, prod, fpsize=self.fpsize, radius=self.radius)) for reac, prod in separate_rxn_smiles_list]
        results = []
        for rxn_smiles, rxn_fp in zip(rxn_smiles_list, rxn_fps):
            input_solvents, input_reagents = self.candidate_generation_model.make_input_rxn_condition(rxn_fp)
            top_contexts = self.ranking_model.rank_top_contexts(rxn_fp, input_solvents, input_reagents)
            result_data = self.table_for_one_reaction_contexts(rxn_smiles, top_contexts[:max_display])
            results.append(result_data)
        return results

    def table_for_one_reaction_contexts(self, rxn_smiles, top_contexts):
        my_table = PrettyTable()
        my_table.field_names = ['Yield / Rank', 'Reagent(s)', 'Solvent(s)', 'Temperature', 'Probability']
        predictions = [['Rank{}'.format(i+1), top_contexts[i][1], top_contexts[i][0], '{:.1f}'.format(top_contexts[i][2]), '{:.3f}'.format(top_contexts[i][3])] for i in range(len(top_contexts))]
        [my_table.add_row(row) for row in predictions]
        if self.verbose:
            print(rxn_smiles)
            print(my_table)
            print('\n')
        return pd.DataFrame(predictions, columns=my_table.field_names)


class MultiTask_Evaluator:
    """Evaluates the multi-label predictions and gives the candidate combinations for the ranking model."""
    def __init__(self, solvent_classes, reagent_classes, cutoff_solv=0.3, cutoff_reag=0.3):
        self.solvent_classes = solvent_classes
        self.reagent_classes = reagent_classes
        self.model = None

        self.exc_solv_names = ['neat (no solvent)', 'not given', 'neat (no solvent, solid phase)']
        self.exc_reag_names = ['nan']
        self.get_exclusive_label_index()

        self.cutoff_solv = cutoff_solv
        self.cutoff_reag = cutoff_reag
        self.max_solv = 11
        self.max_reag = 11

    def load_model(self, model_path, device =
                   torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu')):

        state_MT = torch.load(model_path, map_location=device)
        self.args_MT = TrainArgs_rxn()
        self.args_MT.from_dict(vars(state_MT['args']), skip_unsettable=True)
        self.args_MT.device = device

        loaded_state_dict_MT = state_MT['state_dict']
        self.model = Multitask_Multilabel(self.args_MT)
        self.model.to(device)
        self.model.load_state_dict(loaded_state_dict_MT)
        self.model.eval()

    def get_exclusive_label_index(self):
        """Indices of the exclusive conditions (e.g. 'neat (no solvent)'), left out of the combinations."""
        self.EXC_SOLV_INDEX = []
        self.EXC_REAG_INDEX = []
        for i in range(len(self.solvent_classes)):
            if self.solvent_classes[i][0] in self.exc_solv_names: self.EXC_SOLV_INDEX.append(i)
        for i in range(len(self.reagent_classes)):
            if self.reagent_classes[i][0] in self.exc_reag_names: self.EXC_REAG_INDEX.append(i)

    def create_cutoff(self, preds, class_name):
        """Process one-dimensional multilabel answer."""
        p = preds.clone()
        p = p.cpu().detach().numpy()
        if class_name == 'solvent':
            hard_selection_index = np.where(p > self.cutoff_solv)[0]
            if len(hard_selection_index) < 1:
                hard_selection_index = np.append(hard_selection_index, p.argsort()[-2:])

            new_p = np.zeros(len(self.solvent_classes))
            new_p[hard_selection_index] = 1
            candidates = [(i, self.solvent_classes[i][0], p[i]) for i in range(len(new_p)) if (new_p[i] == 1)]
        elif class_name == 'reagent':
            hard_selection_index = np.where(p > self.cutoff_reag)[0]
            if len(hard_selection_index) < 1:
                hard_selection_index = np.append(hard_selection_index, p.argsort()[-2:])

            new_p = np.zeros(len(self.reagent_classes))
            new_p[hard_selection_index] = 1
            candidates = [(i, self.reagent_classes[i][0], p[i]) for i in range(len(new_p)) if (new_p[i] == 1)]
        return new_p, candidates

    def enumerate_combinations(self, rxn_fp):
        preds_solv, preds_reag = self.model(rxn_fp)
        p1, candidates_solv = self.create_cutoff(preds_solv, class_name='solvent')
        p2, candidates_reag = self.create_cutoff(preds_reag, class_name='reagent')
        if len(candidates_solv) > self.max_solv:
            p1 = truncate_features(p1, candidates_solv, self.max_solv)
        if len(candidates_reag) > self.max_reag:
            p2 = truncate_features(p2, candidates_reag, self.max_reag)
        p1 = list(np.where(p1 == 1)[0])
        p2 = list(np.where(p2 == 1)[0])
        p1 = list(combinations([i for i in p1 if i not in self.EXC_SOLV_INDEX], 2)) + list(combinations(p1, 1))
        p2 = list(combinations([i for i in p2 if i not in self.EXC_REAG_INDEX], 3)) + \
             list(combinations([i for i in p2 if i not in self.EXC_REAG_INDEX], 2)) + list(combinations(p2, 1))

        enumerated_features = []
        for index_solv in p1:
            feature_solv = np.zeros(len(self.solvent_classes))
            for i in index_solv: feature_solv[i] = 1

            for index_reag in p2:
                feature_reag = np.zeros(len(self.reagent_classes))
                for i in index_reag: feature_reag[i] = 1
                enumerated_features.append((feature_solv, feature_reag))
        if enumerated_features == []:
            enumerated_features = [(np.zeros(len(self.solvent_classes)), np.zeros(len(self.reagent_classes)))]
        return enumerated_features

    def make_input_rxn_condition(self, rxn_fp):
        """Enumerate all possible reaction conditions for the inputs of the ranking model."""
        rxn_fp = rxn_fp.to(self.model.device)
        enumerated_features = self.enumerate_combinations(rxn_fp)
        enumerated_solvent, enumerated_reagent = list(zip(*enumerated_features))
        return torch.Tensor(enumerated_solvent), torch.Tensor(enumerated_reagent)


class Ranking_Evaluator():
    """Ranks the candidate reaction conditions."""
    def __init__(self, solvent_classes, reagent_classes):
        self.solvent_classes = solvent_classes
        self.reagent_classes = reagent_classes
        self.model = None
        self.device = None

    def load_model(self, model_path, device =
                   torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu')):
        self.device = device
        state_LW = torch.load(model_path, map_location=device)
        self.args_LW = TrainArgs_rxn()
        self.args_LW.from_dict(vars(state_LW['args']), skip_unsettable=True)
        self.args_LW.device = device
        loaded_state_dict_LW = state_LW['state_dict']
        self.model = ReactionModel_LWTemp(self.args_LW, len_solvent=len(self.solvent_classes), len_reagent=len(self.reagent_classes))
        self.model.to(device)
        self.model.load_state_dict(loaded_state_dict_LW)
        self.model.eval()

    def convert_features2name(self, inputs, class_name):
        """Convert binary vectors to solvent names and reagent names."""
        input_features = inputs.clone().cpu().detach().numpy()
        context = []
        if class_name == 'solvent':
            classes = self.solvent_classes
        elif class_name == 'reagent':
            classes = self.reagent_classes

        for feature in input_features:
            text = ''
            for i in np.where(feature == 1)[0]: text += classes[i][0]+'; '
            text = text.rstrip('; ')
            context.append(text)
        return context

    def make_contexts(self, input_solvents, input_reagents):
        """Convert the binary tensors to the reaction condition names."""
        context_solv = self.convert_features2name(input_solvents, 'solvent')
        context_reag = self.convert_features2name(input_reagents, 'reagent')

        return list(zip(context_solv, context_reag))

    def predict_scores(self, rxn_fp, input_solvents, input_reagents):
        """Input rxn_fp shape should be [1, N, fp_size*2] per query."""
        input_solvents = input_solvents.unsqueeze(0).to(self.device)
        input_reagents = input_reagents.unsqueeze(0).to(self.device)

        rxn_fp = rxn_fp.view(1, -1)
        rxn_fp = rxn_fp.repeat(input_solvents.shape[1], 1)
        rxn_fp = rxn_fp.unsqueeze(0)

        scores, temperatures = self.model(rxn_fp, input_solvents, input_reagents)
        scores = F.softmax(scores, dim=1).view(-1)
        temperatures = temperatures.view(-1)
        temperatures = [float(t.cpu().detach().numpy()) for t in temperatures]

        return scores, temperatures

    def rank_top_contexts(self, rxn_fp, input_solvents, input_reagents):
        contexts = self.make_contexts(input_solvents, input_reagents)
        scores, temperatures = self.predict_scores(rxn_fp, input_solvents, input_reagents)
        top_index = torch.argsort(scores, descending=True)
        top_contexts = [sort_string(contexts[j]) + [temperatures[j]] + [float(scores[j].detach().cpu())] for j in top_index]

        return top_contexts


def truncate_features(p, candidates, top=11):
    assert type(top) == int
    candidates = sorted(candidates, key=lambda x: x[2], reverse=True)[0:top]
    p_ = np.zeros(len(p))
    idx, _1, _2 = zip(*candidates)
    np.put(p_, idx, 1.0)
    return p_


def truncate_candidates(candidates, top=11):
    assert type(top) == int
    candidates = sorted(candidates, key=lambda x: x[2], reverse=True)[0:top]
    return candidates


def sort_string(context):
    if type(context) == str:
        return '; '.join(sorted(context.split('; ')))
    else:
        return [sort_string(z) for z in context]
