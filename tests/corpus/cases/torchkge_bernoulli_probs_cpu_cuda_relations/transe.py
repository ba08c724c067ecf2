from collections import defaultdict

from torch import tensor, bernoulli, randint, cat, cuda, nn
from torch.nn.functional import normalize
from torch.optim import Adam


class KnowledgeGraph:
    """Facts as three index tensors, as torchkge.data_structures.KnowledgeGraph stores them."""

    def __init__(self, head_idx, tail_idx, relations, n_ent, n_rel):
        self.head_idx = head_idx
        self.tail_idx = tail_idx
        self.relations = relations
        self.n_ent = n_ent
        self.n_rel = n_rel
        self.n_facts = len(head_idx)


def get_tph(t):
    """Mean number of tails per head, for each relation (columns of t: head, tail, relation)."""
    d = defaultdict(set)
    for h, tl, r in t.tolist():
        d[(r, h)].add(tl)
    per_rel = defaultdict(list)
    for (r, _), tails in d.items():
        per_rel[r].append(len(tails))
    return {r: sum(v) / len(v) for r, v in per_rel.items()}


def get_hpt(t):
    """Mean number of heads per tail, for each relation."""
    d = defaultdict(set)
    for h, tl, r in t.tolist():
        d[(r, tl)].add(h)
    per_rel = defaultdict(list)
    for (r, _), heads in d.items():
        per_rel[r].append(len(heads))
    return {r: sum(v) / len(v) for r, v in per_rel.items()}


def get_bernoulli_probs(kg):
    """Evaluate the Bernoulli probabilities for negative sampling as in the
    TransH original paper by Wang et al. (2014)."""
    t = cat((kg.head_idx.view(-1, 1),
             kg.tail_idx.view(-1, 1),
             kg.relations.view(-1, 1)), dim=1)

    hpt = get_hpt(t)
    tph = get_tph(t)

    assert hpt.keys() == tph.keys()

    for k in tph.keys():
        tph[k] = tph[k] / (tph[k] + hpt[k])

    return tph


class NegativeSampler:
    """Interface for negative samplers."""

    def __init__(self, kg, kg_val=None, kg_test=None, n_neg=1):
        self.kg = kg
        self.n_ent = kg.n_ent
        self.n_facts = kg.n_facts
        self.kg_val = kg_val
        self.kg_test = kg_test
        self.n_neg = n_neg

    def corrupt_batch(self, heads, tails, relations, n_neg):
        raise NotImplementedError('NegativeSampler is just an interface, '
                                  'please consider using a child class '
                                  'where this is implemented.')


class BernoulliNegativeSampler(NegativeSampler):
    """Bernoulli negative sampler as presented in 2014 paper by Wang et al.."""

    def __init__(self, kg, kg_val=None, kg_test=None, n_neg=1):
        super().__init__(kg, kg_val, kg_test, n_neg)
        self.bern_probs = self.evaluate_probabilities()

    def evaluate_probabilities(self):
        """Evaluate the Bernoulli probabilities for negative sampling as in the
        TransH original paper by Wang et al. (2014).
        """
        bern_probs = get_bernoulli_probs(self.kg)

        tmp = []
        for i in range(self.kg.n_rel):
            if i in bern_probs.keys():
                tmp.append(bern_probs[i])
            else:
                tmp.append(0.5)

        return tensor(tmp).float()

    def corrupt_batch(self, heads, tails, relations, n_neg=None):
        """For each true triplet, produce a corrupted one assumed to be different
        from any other true triplet. If `heads` and `tails` are cuda objects,
        then the returned tensors are on the GPU."""
        if n_neg is None:
            n_neg = self.n_neg

        device = heads.device
        assert (device == tails.device)

        batch_size = heads.shape[0]
        neg_heads = heads.repeat(n_neg)
        neg_tails = tails.repeat(n_neg)

        # Randomly choose which samples will have head/tail corrupted
        mask = bernoulli(self.bern_probs[relations].repeat(n_neg)).double()
        n_h_cor = int(mask.sum().item())
        neg_heads[mask == 1] = randint(1, self.n_ent,
                                       (n_h_cor,),
                                       device=device)
        neg_tails[mask == 0] = randint(1, self.n_ent,
                                       (batch_size * n_neg - n_h_cor,),
                                       device=device)

        return neg_heads.long(), neg_tails.long()


def get_n_batches(n, b_size):
    n_batch = n // b_size
    if n % b_size > 0:
        n_batch += 1
    return n_batch


class DataLoader:
    """Inspired from torch.utils.data.DataLoader, way simpler."""

    def __init__(self, kg, batch_size, use_cuda=None):
        self.h = kg.head_idx
        self.t = kg.tail_idx
        self.r = kg.relations

        self.use_cuda = use_cuda
        self.batch_size = batch_size

        if use_cuda is not None and use_cuda == 'all':
            self.h = self.h.cuda()
            self.t = self.t.cuda()
            self.r = self.r.cuda()

    def __len__(self):
        return get_n_batches(len(self.h), self.batch_size)

    def __iter__(self):
        return _DataLoaderIter(self)


class _DataLoaderIter:
    def __init__(self, loader):
        self.h = loader.h
        self.t = loader.t
        self.r = loader.r

        self.use_cuda = loader.use_cuda
        self.batch_size = loader.batch_size

        self.n_batches = get_n_batches(len(self.h), self.batch_size)
        self.current_batch = 0

    def __next__(self):
        if self.current_batch == self.n_batches:
            raise StopIteration
        else:
            i = self.current_batch
            self.current_batch += 1

            tmp_h = self.h[i * self.batch_size: (i + 1) * self.batch_size]
            tmp_t = self.t[i * self.batch_size: (i + 1) * self.batch_size]
            tmp_r = self.r[i * self.batch_size: (i + 1) * self.batch_size]

            if self.use_cuda is not None and self.use_cuda == 'batch':
                return tmp_h.cuda(), tmp_t.cuda(), tmp_r.cuda()
            else:
                return tmp_h, tmp_t, tmp_r

    def __iter__(self):
        return self


class TransEModel(nn.Module):
    """Stand-in for torchkge.models.TransEModel: scores h + r - t with L2 dissimilarity."""

    def __init__(self, emb_dim, n_entities, n_relations):
        super().__init__()
        self.ent_emb = nn.Embedding(n_entities, emb_dim)
        self.rel_emb = nn.Embedding(n_relations, emb_dim)

    def scoring_function(self, h_idx, t_idx, r_idx):
        h = normalize(self.ent_emb(h_idx), p=2, dim=1)
        t = normalize(self.ent_emb(t_idx), p=2, dim=1)
        r = self.rel_emb(r_idx)
        return -((h + r - t) ** 2).sum(dim=1)

    def forward(self, heads, tails, relations, negative_heads, negative_tails):
        pos = self.scoring_function(heads, tails, relations)
        neg = self.scoring_function(negative_heads, negative_tails, relations.repeat(len(negative_heads) // len(relations)))
        return pos, neg


class MarginLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.loss = nn.MarginRankingLoss(margin=margin, reduction='sum')

    def forward(self, positive_triplets, negative_triplets):
        return self.loss(positive_triplets, negative_triplets, target=positive_triplets.new_ones(positive_triplets.shape))


if __name__ == '__main__':
    # Load dataset (a small random graph in place of load_fb15k)
    n_ent, n_rel, n_facts = 50, 5, 400
    kg_train = KnowledgeGraph(randint(0, n_ent, (n_facts,)), randint(0, n_ent, (n_facts,)),
                              randint(0, n_rel, (n_facts,)), n_ent, n_rel)

    # Define some hyper-parameters for training
    emb_dim = 100
    lr = 0.0004
    n_epochs = 2
    b_size = 128
    margin = 0.5

    # Define the model and criterion
    model = TransEModel(emb_dim, kg_train.n_ent, kg_train.n_rel)
    criterion = MarginLoss(margin)

    # Move everything to CUDA if available
    if cuda.is_available():
        cuda.empty_cache()
        model.cuda()
        criterion.cuda()

    # Define the torch optimizer to be used
    optimizer = Adam(model.parameters(), lr=lr, weight_decay=1e-5)

    sampler = BernoulliNegativeSampler(kg_train)
    dataloader = DataLoader(kg_train, batch_size=b_size, use_cuda='all')

    for epoch in range(n_epochs):
        running_loss = 0.0
        for i, batch in enumerate(dataloader):
            h, t, r = batch[0], batch[1], batch[2]
            n_h, n_t = sampler.corrupt_batch(h, t, r)

            optimizer.zero_grad()

            # forward + backward + optimize
            pos, neg = model(h, t, r, n_h, n_t)
            loss = criterion(pos, neg)
            loss.backward()
            optimizer.step()

            running_loss += loss.item()
        print('Epoch {} | mean loss: {:.5f}'.format(epoch + 1, running_loss / len(dataloader)))
