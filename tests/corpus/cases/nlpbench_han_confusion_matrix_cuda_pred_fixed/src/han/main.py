# -*- coding: utf-8 -*-
"""
@brief:
    Hierarchical Attention Network (https://www.cs.cmu.edu/~diyiy/docs/naacl16.pdf)
"""
import torch
import argparse
import numpy as np
import torch.nn.functional as F

from tqdm import tqdm
from sklearn import metrics
from src import lib
from src.datasets import load_datasets
from torch.utils.data import DataLoader, Dataset

from src.han.net import HAN


def get_args():
    parser = argparse.ArgumentParser("""
    paper: Hierarchical Attention Network (https://www.cs.cmu.edu/~diyiy/docs/naacl16.pdf)
    """)
    parser.add_argument("--dataset", type=str, default='imdb')
    parser.add_argument("--solver_type", type=str, choices=['sgd', 'adam'], default='adam')
    parser.add_argument("--batch_size", type=int, default=32, help="number of example read by the gpu")
    parser.add_argument("--test_batch_size", type=int, default=None, help="batch size during prediction (equals to batch_size if none)")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.0001)
    parser.add_argument('--gpuid', type=int, default=0, help="select gpu indice (default = -1 = no gpu used")
    parser.add_argument('--nthreads', type=int, default=4, help="number of cpu threads")
    args = parser.parse_args()
    return args


def tuple_batch(l):
    """
    Prepare batch
    - Reorder reviews by length
    - Split reviews by sentences which are reordered by length
    - Build sentence ordering index to extract each sentences in training loop
    """
    review, rating = zip(*l)
    r_t = torch.Tensor(rating).long()
    list_rev = review

    sorted_r = sorted([(len(r),r_n,r) for r_n,r in enumerate(list_rev)],reverse=True) #index by desc rev_le
    lr,r_n,ordered_list_rev = zip(*sorted_r)
    lr = list(lr)
    max_sents = lr[0]

    #reordered
    r_t = r_t[[r_n]]
    review = [review[x] for x in r_n]

    stat =  sorted([(len(s),r_n,s_n,s) for r_n,r in enumerate(ordered_list_rev) for s_n,s in enumerate(r)],reverse=True)
    max_words = stat[0][0]

    ls = []
    batch_t = torch.zeros(len(stat),max_words).long()                         # (sents ordered by len)
    sent_order = torch.zeros(len(ordered_list_rev),max_sents).long().fill_(0) # (rev_n,sent_n)

    for i,s in enumerate(stat):
        sent_order[s[1],s[2]] = i+1 #i+1 because 0 is for empty.
        batch_t[i,0:len(s[3])] = torch.LongTensor(s[3])
        ls.append(s[0])

    return batch_t, r_t, sent_order, ls, lr, review


class TupleLoader(Dataset):

    def __init__(self, sequences, labels):
        assert len(sequences) == len(labels)
        self.sequences = sequences
        self.labels = labels
        self.len = len(self.labels)

    def __len__(self):
        return self.len

    def __getitem__(self, i):
        return (self.sequences[i], self.labels[i])


def get_metrics(cm, list_metrics):
    """Compute metrics from a confusion matrix (cm)"""
    dic_metrics = {}
    total = np.sum(cm)

    if 'accuracy' in list_metrics:
        out = np.sum(np.diag(cm))
        dic_metrics['accuracy'] = out/total

    if 'pres_0' in list_metrics:
        num = cm[0, 0]
        den = cm[:, 0].sum()
        dic_metrics['pres_0'] =  num/den if den > 0 else 0

    if 'recall_0' in list_metrics:
        num = cm[0, 0]
        den = cm[0, :].sum()
        dic_metrics['recall_0'] = num/den if den > 0 else 0

    return dic_metrics


def train(epoch,net,dataset,device,msg="val/test",optimize=False,optimizer=None,scheduler=None,criterion=None):

    net.train() if optimize else net.eval()

    epoch_loss = 0
    nclasses = len(list(net.parameters())[-1])
    cm = np.zeros((nclasses,nclasses), dtype=int)

    with tqdm(total=len(dataset),desc="Epoch {} - {}".format(epoch, msg)) as pbar:
        for iteration, (batch_t,r_t,sent_order,ls,lr,review) in enumerate(dataset):

            data = (batch_t,r_t,sent_order)
            data = [x.to(device) for x in data]

            if optimize:
                optimizer.zero_grad()

            out = net(data[0],data[2],ls,lr)
            ty_prob = F.softmax(out, 1) # probabilites

            #metrics
            y_true = r_t.detach().cpu().numpy()
            y_pred = ty_prob.max(1)[1].cpu().numpy()

            cm += metrics.confusion_matrix(y_true, y_pred, labels=range(nclasses))
            dic_metrics = get_metrics(cm, list_metrics)

            loss =  criterion(out, data[1])
            epoch_loss += loss.item()
            dic_metrics['logloss'] = epoch_loss/(iteration+1)

            if optimize:
                loss.backward()
                optimizer.step()

            pbar.update(1)
            pbar.set_postfix(dic_metrics)

    if scheduler:
        scheduler.step()


if __name__ == "__main__":

    opt = get_args()

    if not opt.test_batch_size:
        opt.test_batch_size = opt.batch_size

    logger = lib.get_logger(logname="han")
    logger.info("parameters: {}".format(vars(opt)))

    dataset = load_datasets(names=[opt.dataset])[0]
    n_classes = dataset.n_classes
    n_tokens = dataset.n_tokens

    # the spacy sentence splitter and the vocabulary are replaced by a reader of word ids
    tr_seq, tr_lab = zip(*dataset.load_train_data())
    te_seq, te_lab = zip(*dataset.load_test_data())

    tr_loader = DataLoader(TupleLoader(tr_seq, tr_lab), batch_size=opt.batch_size, shuffle=True, num_workers=opt.nthreads, collate_fn=tuple_batch)
    te_loader = DataLoader(TupleLoader(te_seq, te_lab), batch_size=opt.test_batch_size, shuffle=False, num_workers=opt.nthreads, collate_fn=tuple_batch)

    # select cpu or gpu
    device = torch.device("cuda:{}".format(opt.gpuid) if opt.gpuid >= 0 else "cpu")
    list_metrics = ['accuracy', 'pres_0', 'recall_0']

    logger.info("Creating model...")
    net = HAN(n_tokens, n_classes, emb_size=200, hid_size=50)

    criterion = torch.nn.CrossEntropyLoss()
    net.to(device)

    if opt.solver_type == 'sgd':
        optimizer = torch.optim.SGD(net.parameters(), lr = opt.lr)
    elif opt.solver_type == 'adam':
        optimizer = torch.optim.Adam(net.parameters(), lr = opt.lr)

    scheduler = None

    for epoch in range(1, opt.epochs + 1):
        train(epoch,net, tr_loader, device, msg="training", optimize=True, optimizer=optimizer, scheduler=scheduler, criterion=criterion)
        train(epoch,net, te_loader, device, msg="testing ", criterion=criterion)
