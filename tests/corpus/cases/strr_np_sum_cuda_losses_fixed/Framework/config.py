import argparse

parser = argparse.ArgumentParser(description="Scene text recognition")
parser.add_argument('--decode_type', type=str, default='CTC')
parser.add_argument('--arch', type=str, default='ResNet_Scene')
parser.add_argument('--height', type=int, default=32)
parser.add_argument('--width', type=int, default=100)
parser.add_argument('--batch_size', type=int, default=4)
parser.add_argument('--workers', type=int, default=0)
parser.add_argument('--max_len', type=int, default=25)
parser.add_argument('--lr', type=float, default=1.0)
parser.add_argument('--epochs', type=int, default=1)
parser.add_argument('--evaluation_metric', type=str, default='accuracy')
parser.add_argument('--evaluate', action='store_true', help="evaluation only")
parser.add_argument('--seed', type=int, default=1)
parser.add_argument('--cuda', default=True, type=bool, help='whether use cuda support.')


def get_args(sys_args):
  args = parser.parse_args(sys_args)
  return args
