#!/usr/bin/env python
# coding:utf-8

import torch

from rnn import RNN

DOC_TOKEN = "doc_token"
DOC_TOKEN_LEN = "doc_token_len"
DOC_LABEL = "doc_label"


class HMCN(torch.nn.Module):
    """ Implement HMCN(Hierarchical Multi-Label Classification Networks)
        Reference: "Hierarchical Multi-Label Classification Networks"
    """

    def __init__(self, dataset, config):
        super(HMCN, self).__init__()
        self.config = config
        self.token_embedding = torch.nn.Embedding(dataset.vocab_size, config.embedding.dimension)
        self.hierarchical_depth = config.HMCN.hierarchical_depth
        self.hierarchical_class = dataset.hierarchy_classes
        self.global2local = config.HMCN.global2local
        self.rnn = RNN(
            config.embedding.dimension, config.TextRNN.hidden_dimension,
            num_layers=config.TextRNN.num_layers, batch_first=True,
            bidirectional=config.TextRNN.bidirectional,
            rnn_type=config.TextRNN.rnn_type)
        hidden_dimension = config.TextRNN.hidden_dimension
        if config.TextRNN.bidirectional:
            hidden_dimension *= 2

        self.local_layers = torch.nn.ModuleList()
        self.global_layers = torch.nn.ModuleList()
        for i in range(1, len(self.hierarchical_depth)):
            self.global_layers.append(
                torch.nn.Sequential(
                    torch.nn.Linear(hidden_dimension + self.hierarchical_depth[i-1], self.hierarchical_depth[i]),
                    torch.nn.ReLU(),
                    torch.nn.Dropout(p=0.5)
                ))
            self.local_layers.append(
                torch.nn.Sequential(
                    torch.nn.Linear(self.hierarchical_depth[i], self.global2local[i]),
                    torch.nn.ReLU(),
                    torch.nn.Linear(self.global2local[i], self.hierarchical_class[i-1])
                ))

        self.linear = torch.nn.Linear(self.hierarchical_depth[-1], dataset.num_labels)

    def forward(self, batch):
        embedding = self.token_embedding(
                batch[DOC_TOKEN].to(self.config.device))
        length = batch[DOC_TOKEN_LEN].to(self.config.device)

        output, last_hidden = self.rnn(embedding, length)
        doc_embedding = torch.sum(output, 1) / length.unsqueeze(1)
        local_layer_outputs = []
        global_layer_activation = doc_embedding
        for i, (local_layer, global_layer) in enumerate(zip(self.local_layers, self.global_layers)):
            local_layer_activation = global_layer(global_layer_activation)
            local_layer_outputs.append(local_layer(local_layer_activation))
            if i < len(self.global_layers)-1:
                global_layer_activation = torch.cat((local_layer_activation, doc_embedding), 1)
            else:
                global_layer_activation = local_layer_activation

        global_layer_output = self.linear(global_layer_activation)
        local_layer_output = torch.cat(local_layer_outputs, 1)
        return global_layer_output, local_layer_output, 0.5 * global_layer_output + 0.5 * local_layer_output
