def train_epoch(epoch, model, loader, optimizer, loss_fn, lr_scheduler=None):
    model.train()
    for batch_idx, (input, target) in enumerate(loader):
        input, target = input.cuda(), target.cuda()
        output = model(input)
        loss = loss_fn(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if lr_scheduler is not None:
        lr_scheduler.step(epoch + 1)
    return {"loss": loss.item()}
