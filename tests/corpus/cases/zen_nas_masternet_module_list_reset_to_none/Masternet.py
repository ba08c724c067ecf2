"""
MasterNet: PlainNet blocks, then global average pooling and a linear classifier.
"""
import torch
from torch import nn
import torch.nn.functional as F

import PlainNet
from PlainNet import basic_blocks


class MasterNet(PlainNet.PlainNet):
    """the searched network"""

    def __init__(self, argv=None, opt=None, num_classes=None, plainnet_struct=None, no_create=False,
                 no_reslink=None, no_BN=None, use_se=None):
        no_BN = bool(no_BN)
        no_reslink = bool(no_reslink)
        use_se = bool(use_se)

        super().__init__(argv=argv, opt=opt, num_classes=num_classes, plainnet_struct=plainnet_struct,
                         no_create=no_create, no_reslink=no_reslink, no_BN=no_BN, use_se=use_se)
        self.last_channels = self.block_list[-1].out_channels
        self.fc_linear = basic_blocks.Linear(in_channels=self.last_channels,
                                             out_channels=self.num_classes, no_create=no_create)

        self.no_create = no_create
        self.no_reslink = no_reslink
        self.no_BN = no_BN
        self.use_se = use_se
        self.module_list = None

        # a larger eps for every batch norm
        for layer in self.modules():
            if isinstance(layer, nn.BatchNorm2d):
                layer.eps = 1e-3

    def forward(self, input_):
        output = self.forward_pre_GAP(input_)
        output = F.adaptive_avg_pool2d(output, output_size=1)
        output = torch.flatten(output, 1)
        return self.fc_linear(output)

    def forward_pre_GAP(self, input_):
        """features before the global average pooling"""
        output = input_
        for the_block in self.block_list:
            output = the_block(output)
        return output

    def replace_block(self, block_id, new_block):
        """mutation: put new_block at block_id"""
        self.block_list[block_id] = new_block
        self.module_list = nn.ModuleList(self.block_list)
