"""
PlainNet: a network given as a string of blocks.
"""
import argparse

from torch import nn

from PlainNet.basic_blocks import _all_netblocks_dict_


def parse_cmd_options(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('--plainnet_struct', type=str, default=None)
    parser.add_argument('--num_classes', type=int, default=None)
    module_opt, _ = parser.parse_known_args(argv)
    return module_opt


def _create_netblock_list_from_str_(struct_str, no_create=False, **kwargs):
    """parse the structure string into block instances, left to right"""
    block_list = []
    while len(struct_str) > 0:
        name = struct_str[:struct_str.find('(')]
        assert name in _all_netblocks_dict_, name
        the_block, struct_str = _all_netblocks_dict_[name].create_from_str(struct_str, no_create=no_create, **kwargs)
        block_list.append(the_block)
    return block_list, ''


class PlainNet(nn.Module):
    """model base class"""

    def __init__(self, argv=None, opt=None, num_classes=None, plainnet_struct=None, no_create=False, **kwargs):
        super().__init__()
        self.argv = argv
        self.opt = opt
        self.module_opt = parse_cmd_options(self.argv)
        self.num_classes = num_classes if num_classes is not None else self.module_opt.num_classes
        self.plainnet_struct = plainnet_struct or self.module_opt.plainnet_struct
        if self.plainnet_struct is None:
            return

        block_list, remaining_s = _create_netblock_list_from_str_(self.plainnet_struct, no_create=no_create, **kwargs)
        assert len(remaining_s) == 0

        self.block_list = block_list
        if not no_create:
            self.module_list = nn.ModuleList(block_list)  # register

    def forward(self, input_):
        output = input_
        for the_block in self.block_list:
            output = the_block(output)
        return output
