class Vocab(object):

    def __init__(self, smiles_list):
        self.vocab = [x for x in smiles_list]
        self.vmap = {x: i for i, x in enumerate(self.vocab)}

    def __getitem__(self, smiles):
        return self.vmap[smiles]

    def size(self):
        return len(self.vocab)


class PairVocab(object):

    def __init__(self, smiles_pairs):
        cls = list(sorted(set([x[0] for x in smiles_pairs])))
        self.hvocab = Vocab(cls)
        self.vocab = [tuple(x) for x in smiles_pairs]
        self.vmap = {x: i for i, x in enumerate(self.vocab)}

    def __getitem__(self, x):
        return self.hvocab[x[0]], self.vmap[x]

    def size(self):
        return self.hvocab.size(), len(self.vocab)


common_atom_vocab = Vocab(['C', 'N', 'O', 'S', 'F', 'Cl', 'Br'])
