import argparse

import torch
import torch.nn as nn


class BertForSentimentClassification(nn.Module):
	def __init__(self, vocab_size=100, hidden_size=32):
		super().__init__()
		# stands for BertModel: token embeddings and a dense layer
		self.embeddings = nn.Embedding(vocab_size, hidden_size)
		self.encoder = nn.Linear(hidden_size, hidden_size)
		#The classification layer that takes the [CLS] representation and outputs the logit
		self.cls_layer = nn.Linear(hidden_size, 1)

	def forward(self, input_ids, attention_mask):
		'''
		Inputs:
			-input_ids : Tensor of shape [B, T] containing token ids of sequences
			-attention_mask : Tensor of shape [B, T] containing attention masks to be used to avoid contibution of PAD tokens
		'''
		hidden = torch.tanh(self.encoder(self.embeddings(input_ids))) * attention_mask.unsqueeze(-1)
		#Obtain the representations of [CLS] heads
		cls_reps = hidden[:, 0]
		logits = self.cls_layer(cls_reps)
		return logits


class WordPieceTokenizer:
	def __init__(self, vocab_size=100):
		self.vocab_size = vocab_size

	def tokenize(self, sentence):
		return sentence.lower().split()

	def convert_tokens_to_ids(self, tokens):
		return [1 if t == '[CLS]' else 2 if t == '[SEP]' else 3 + hash(t) % (self.vocab_size - 3) for t in tokens]


def classify_sentiment(sentence):
	with torch.no_grad():
		tokens = tokenizer.tokenize(sentence)
		tokens = ['[CLS]'] + tokens + ['[SEP]']
		input_ids = tokenizer.convert_tokens_to_ids(tokens)
		input_ids = torch.tensor(input_ids)
		input_ids = input_ids.unsqueeze(0).to(device)
		attention_mask = (input_ids != 0).long()
		logit = model(input_ids=input_ids, attention_mask=attention_mask)
		prob = torch.sigmoid(logit.unsqueeze(-1))
		prob = prob.item()
		soft_prob = prob > 0.5
		if soft_prob == 1:
			print('Positive with probability {}%.'.format(int(prob*100)))
		else:
			print('Negative with probability {}%.'.format(int(100-prob*100)))


if __name__ == "__main__":
	parser = argparse.ArgumentParser()
	parser.add_argument('--model_name_or_path', type=str, default=None)
	args = parser.parse_args()

	print('Please wait while the analyser is being prepared.')

	#Create the model with the desired transformer model
	model = BertForSentimentClassification()

	device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
	model = model.to(device)

	model.eval()

	#Initialize the tokenizer for the desired transformer model
	tokenizer = WordPieceTokenizer()

	sentence = input('Input sentiment to analyze: ')
	while sentence:
		classify_sentiment(sentence)
		sentence = input('Input sentiment to analyze: ')
