"""
Basic blocks a PlainNet structure string is made of: ConvKX(in,out,k,stride) BN(c) RELU(c).
"""
import uuid

from torch import nn


def _get_right_parentheses_index_(struct_str):
    depth = 0
    for index, char in enumerate(struct_str):
        if char == '(':
            depth += 1
        elif char == ')':
            depth -= 1
            if depth == 0:
                return index
    return None


class PlainNetBasicBlockClass(nn.Module):
    """base class of the blocks"""

    def __init__(self, in_channels=None, out_channels=None, stride=1, no_create=False, block_name=None, **kwargs):
        super().__init__(**kwargs)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.stride = stride
        self.no_create = no_create
        self.block_name = block_name or f'uuid{uuid.uuid4().hex}'

    def forward(self, input_):
        raise RuntimeError('Not implemented')

    @classmethod
    def create_from_str(cls, struct_str, no_create=False, **kwargs):
        idx = _get_right_parentheses_index_(struct_str)
        params = [int(x) for x in struct_str[len(cls.__name__ + '('):idx].split(',')]
        return cls(*params, no_create=no_create), struct_str[idx + 1:]


class ConvKX(PlainNetBasicBlockClass):
    """k x k convolution"""

    def __init__(self, in_channels=None, out_channels=None, kernel_size=None, stride=None, groups=1,
                 no_create=False, **kwargs):
        super().__init__(in_channels, out_channels, stride, no_create, **kwargs)
        self.kernel_size = kernel_size
        self.groups = groups
        if no_create:
            return
        self.netblock = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride,
                                  padding=(kernel_size - 1) // 2, bias=False, groups=groups)

    def forward(self, input_):
        return self.netblock(input_)


class BN(PlainNetBasicBlockClass):
    """batch normalization"""

    def __init__(self, out_channels=None, no_create=False, **kwargs):
        super().__init__(out_channels, out_channels, 1, no_create, **kwargs)
        if not no_create:
            self.netblock = nn.BatchNorm2d(out_channels)

    def forward(self, input_):
        return self.netblock(input_)


class RELU(PlainNetBasicBlockClass):
    """relu"""

    def __init__(self, out_channels=None, no_create=False, **kwargs):
        super().__init__(out_channels, out_channels, 1, no_create, **kwargs)

    def forward(self, input_):
        return nn.functional.relu(input_)


class Linear(PlainNetBasicBlockClass):
    """fully connected classifier"""

    def __init__(self, in_channels=None, out_channels=None, bias=True, no_create=False, **kwargs):
        super().__init__(in_channels, out_channels, 1, no_create, **kwargs)
        if not no_create:
            self.netblock = nn.Linear(in_channels, out_channels, bias=bias)

    def forward(self, input_):
        return self.netblock(input_)


_all_netblocks_dict_ = {'ConvKX': ConvKX, 'BN': BN, 'RELU': RELU}
