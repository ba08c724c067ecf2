"""NAS-Bench-101 network: a stem, stacks of identical cells, a classifier.

Inside a cell the tensors flowing into a vertex are summed, the tensors flowing
into the output vertex are concatenated (here: every interior vertex has the
cell's channel count and the output is their sum, a simplification)."""

import numpy as np
import torch
import torch.nn as nn

from nasbench_pytorch.model.base_ops import OP_MAP, ConvBnRelu


class Network(nn.Module):
    def __init__(self, spec, num_labels=10, in_channels=3, stem_out_channels=128, num_stacks=3,
                 num_modules_per_stack=3):
        super(Network, self).__init__()
        self.layers = nn.ModuleList([ConvBnRelu(in_channels, stem_out_channels, 3, 1, 1)])

        channels = stem_out_channels
        for stack_num in range(num_stacks):
            if stack_num > 0:
                self.layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            for _ in range(num_modules_per_stack):
                self.layers.append(Cell(spec, channels, channels))

        self.classifier = nn.Linear(channels, num_labels)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        out = torch.mean(x, (2, 3))
        return self.classifier(out)


class Cell(nn.Module):
    def __init__(self, spec, in_channels, out_channels):
        super(Cell, self).__init__()
        self.matrix = spec.matrix
        self.num_vertices = np.shape(self.matrix)[0]

        # one op per interior vertex; 1x1 projections of the cell input where vertex 0 feeds a vertex
        self.vertex_op = nn.ModuleList(
            [OP_MAP[spec.ops[t]](out_channels, out_channels) for t in range(1, self.num_vertices - 1)])
        self.input_op = nn.ModuleList(
            [ConvBnRelu(in_channels, out_channels, 1) for t in range(1, self.num_vertices)])

    def forward(self, x):
        tensors = [x]
        outputs = []
        for t in range(1, self.num_vertices - 1):
            fan_in = [tensors[src] for src in range(1, t) if self.matrix[src, t]]
            if self.matrix[0, t]:
                fan_in.append(self.input_op[t - 1](x))

            # sum of the incoming tensors
            vertex_input = torch.zeros(fan_in[0].shape)
            for val in fan_in:
                vertex_input += val
            tensors.append(self.vertex_op[t - 1](vertex_input))
            if self.matrix[t, self.num_vertices - 1]:
                outputs.append(tensors[t])

        out = torch.stack(outputs, 0).sum(0)
        if self.matrix[0, self.num_vertices - 1]:
            out = out + self.input_op[-1](x)
        return out
