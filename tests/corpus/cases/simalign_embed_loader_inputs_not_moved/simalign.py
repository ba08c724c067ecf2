# coding=utf-8
# simalign/simalign.py as of commit 2b424cc (before 15df16e), reduced: the aligner keeps its "bpe" tokens
# and the argmax ("inter") method; scipy/sklearn/networkx helpers are left out.

import logging
from typing import Dict, List, Tuple, Union

import numpy as np
import torch
from transformers import *

LOG = logging.getLogger(__name__)


class EmbeddingLoader(object):
	def __init__(self, model: str="bert-base-multilingual-cased", device=torch.device('cpu'), layer: int=8):
		TR_Models = {
			'bert-base-uncased': (BertModel, BertTokenizer),
			'bert-base-multilingual-cased': (BertModel, BertTokenizer),
			'bert-base-multilingual-uncased': (BertModel, BertTokenizer),
			'xlm-mlm-100-1280': (XLMModel, XLMTokenizer),
			'roberta-base': (RobertaModel, RobertaTokenizer),
			'xlm-roberta-base': (XLMRobertaModel, XLMRobertaTokenizer),
			'xlm-roberta-large': (XLMRobertaModel, XLMRobertaTokenizer),
		}

		self.model = model
		self.device = device
		self.layer = layer
		self.emb_model = None
		self.tokenizer = None

		if model in TR_Models:
			model_class, tokenizer_class = TR_Models[model]
			self.emb_model = model_class.from_pretrained(model, output_hidden_states=True)
			self.emb_model.eval()
			self.emb_model.to(self.device)
			self.tokenizer = tokenizer_class.from_pretrained(model)
			LOG.info("Initialized the EmbeddingLoader with model: {}".format(self.model))
		else:
			raise ValueError("The model '{}' is not recognised!".format(model))

	def get_embed_list(self, sent_pair: List[List[str]]) -> torch.Tensor:
		if self.emb_model is not None:
			inputs = self.tokenizer(sent_pair, is_pretokenized=True, padding=True, truncation=True, return_tensors="pt")
			outputs = self.emb_model(**inputs)[2][self.layer]

			return outputs[:, 1:-1, :]
		else:
			return None


class SentenceAligner(object):
	def __init__(self, model: str = "bert", token_type: str = "bpe", distortion: float = 0.0, matching_methods: str = "a", device: str = "cpu", layer: int = 8):
		model_names = {
			"bert": "bert-base-multilingual-cased",
			}
		all_matching_methods = {"a": "inter"}

		self.model = model
		if model in model_names:
			self.model = model_names[model]
		self.token_type = token_type
		self.distortion = distortion
		self.matching_methods = [all_matching_methods[m] for m in matching_methods]
		self.device = torch.device(device)

		self.embed_loader = EmbeddingLoader(model=self.model, device=self.device, layer=layer)

	@staticmethod
	def get_similarity(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
		X = X / (np.linalg.norm(X, axis=1, keepdims=True) + 1e-8)
		Y = Y / (np.linalg.norm(Y, axis=1, keepdims=True) + 1e-8)
		return (X @ Y.T + 1.0) / 2.0

	@staticmethod
	def get_alignment_matrix(sim_matrix: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
		m, n = sim_matrix.shape
		forward = np.eye(n)[sim_matrix.argmax(axis=1)]  # m x n
		backward = np.eye(m)[sim_matrix.argmax(axis=0)]  # n x m
		return forward, backward.transpose()

	def get_word_aligns(self, src_sent: Union[str, List[str]], trg_sent: Union[str, List[str]]) -> Dict[str, List]:
		if isinstance(src_sent, str):
			src_sent = src_sent.split()
		if isinstance(trg_sent, str):
			trg_sent = trg_sent.split()
		l1_tokens = [self.embed_loader.tokenizer.tokenize(word) for word in src_sent]
		l2_tokens = [self.embed_loader.tokenizer.tokenize(word) for word in trg_sent]
		bpe_lists = [[bpe for w in sent for bpe in w] for sent in [l1_tokens, l2_tokens]]

		vectors = self.embed_loader.get_embed_list([src_sent, trg_sent]).cpu().detach().numpy()

		all_mats = {}
		sim = self.get_similarity(vectors[0, :len(bpe_lists[0])], vectors[1, :len(bpe_lists[1])])
		all_mats["fwd"], all_mats["rev"] = self.get_alignment_matrix(sim)
		all_mats["inter"] = all_mats["fwd"] * all_mats["rev"]

		aligns = {x: set() for x in self.matching_methods}
		for i in range(len(vectors[0])):
			for j in range(len(vectors[1])):
				for ext in self.matching_methods:
					if i < sim.shape[0] and j < sim.shape[1] and all_mats[ext][i, j] > 0:
						aligns[ext].add((i, j))
		for ext in aligns:
			aligns[ext] = sorted(aligns[ext])
		return aligns


if __name__ == "__main__":
	# the README's example, with the aligner on the GPU
	myaligner = SentenceAligner(model="bert", token_type="bpe", matching_methods="a", device="cuda")
	src_sentence = ["This", "is", "a", "test", "."]
	trg_sentence = ["Das", "ist", "ein", "Test", "."]
	alignments = myaligner.get_word_aligns(src_sentence, trg_sentence)
	for matching_method in alignments:
		print(matching_method, ":", alignments[matching_method])
