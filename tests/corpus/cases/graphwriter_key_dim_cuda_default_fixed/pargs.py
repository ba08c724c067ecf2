import torch
import argparse


def dynArgs(args, ds):
  args.ntoks = len(ds.OUTP.vocab)
  args.tgttoks = len(ds.TGT.vocab)
  args.vtoks = len(ds.ENT.itos)
  args.rtoks = len(ds.REL.itos)
  args.starttok = ds.OUTP.vocab.stoi["<start>"]
  args.esz = args.hsz
  return args


def pargs():
  parser = argparse.ArgumentParser(description='Graph Doc Plan')
  # model
  parser.add_argument("-model", default="graph", help="model types: 'graph' for graph transformer (default), 'gat' for graph attention network")
  parser.add_argument("-esz", default=500, type=int, help='embedding size')
  parser.add_argument("-hsz", default=500, type=int, help="hidden state size")
  parser.add_argument("-prop", default=6, type=int, help="number of layers/blocks")
  parser.add_argument("-drop", default=0.1, type=float, help="dropout rate")
  parser.add_argument("-embdrop", default=0, type=float, help="embedding dropout")
  # training and loss
  parser.add_argument("-epochs", default=1, type=int, help="training epochs")
  parser.add_argument("-t1size", default=4, type=int, help="batch size for short targets")
  parser.add_argument("-lr", default=0.1, type=float, help="learning rate")
  parser.add_argument("-clip", default=1, type=float, help="clip grad")
  parser.add_argument("-sparse", action='store_true', help="sparse graphs (NOT CURRENTLY IMPLEMENTED)")
  parser.add_argument("-entdetach", action='store_true', help='dont backprop into entity embeddings')
  parser.add_argument("-gpu", default=0, type=int)
  args = parser.parse_args()
  if args.gpu == -1:
    args.gpu = 'cpu'
  args.device = torch.device(args.gpu)
  return args
