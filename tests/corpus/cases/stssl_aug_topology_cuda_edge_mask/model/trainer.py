class Trainer(object):
    def __init__(self, model, optimizer, dataloader, graph, args):
        super(Trainer, self).__init__()
        self.model = model
        self.optimizer = optimizer
        self.train_loader = dataloader['train']
        self.scaler = dataloader['scaler']
        self.graph = graph
        self.args = args

    def train_epoch(self, epoch):
        self.model.train()

        total_loss = 0
        for batch_idx, (data, target) in enumerate(self.train_loader):
            self.optimizer.zero_grad()

            # input shape: n,l,v,c; graph shape: v,v;
            repr1, repr2 = self.model(data, self.graph) # nvc
            loss = self.model.loss(repr1, repr2, target, self.scaler)
            assert not loss.isnan()
            loss.backward()
            self.optimizer.step()
            total_loss += loss.item()
        return total_loss / len(self.train_loader)

    def train(self):
        for epoch in range(1, self.args.epochs + 1):
            train_epoch_loss = self.train_epoch(epoch)
            print('epoch {}: train loss {:.4f}'.format(epoch, train_epoch_loss))
