from hgraph.encoder import HierMPNEncoder
from hgraph.decoder import HierMPNDecoder
from hgraph.vocab import PairVocab, common_atom_vocab
from hgraph.hgnn import HierVAE
from hgraph.dataset import DataFolder
