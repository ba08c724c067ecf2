import torch


def experiment_vae(args, train_loader, val_loader, model, optimizer):
    from utils.evaluation import evaluate_vae as evaluate

    for epoch in range(1, args.epochs + 1):
        model.train()
        for train, _ in train_loader:
            if args.cuda:
                train = train.cuda()
            optimizer.zero_grad()
            loss, RE, KL = model.calculate_loss(train, beta=args.max_beta, average=True)
            loss.backward()
            optimizer.step()

        val_loss_epoch, val_ndcg_epoch = evaluate(args, model, val_loader, mode='validation')
        print('epoch', epoch, 'val loss', val_loss_epoch, 'NDCG@100', val_ndcg_epoch)
