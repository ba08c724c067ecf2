import time

import torch
from torch import optim
from torch.utils.data import DataLoader

from ivadomed import mixup as imed_mixup
from ivadomed import models as imed_models
from ivadomed import utils as imed_utils


def train(model_params, dataset_train, training_params, log_directory, device,
          cuda_available=True, debugging=False):
    """Main command to train the network (the training half of ivadomed.training.train)."""
    train_loader = DataLoader(dataset_train, batch_size=training_params["batch_size"],
                              shuffle=True, pin_memory=True, num_workers=0)

    # GET MODEL
    print("\nInitialising model's weights from scratch.")
    model_class = getattr(imed_models, model_params["name"])
    model = model_class(**model_params)
    if cuda_available:
        model.cuda()

    num_epochs = training_params["num_epochs"]
    params_to_opt = filter(lambda p: p.requires_grad, model.parameters())
    optimizer = optim.Adam(params_to_opt, lr=training_params["initial_lr"])
    loss_fct = imed_models.DiceLoss()

    for epoch in range(1, num_epochs + 1):
        start_time = time.time()
        model.train()
        train_loss_total = 0.0
        num_steps = 0
        for i, batch in enumerate(train_loader):
            # GET SAMPLES
            if model_params["name"] == "HeMISUnet":
                input_samples = imed_utils.cuda(imed_utils.unstack_tensors(batch["input"]), cuda_available)
            else:
                input_samples = imed_utils.cuda(batch["input"], cuda_available)
            gt_samples = imed_utils.cuda(batch["gt"], cuda_available, non_blocking=True)

            # MIXUP
            if training_params["mixup_alpha"]:
                input_samples, gt_samples = imed_mixup.mixup(input_samples, gt_samples, training_params["mixup_alpha"],
                                                             debugging and epoch == 1, log_directory)

            # RUN MODEL
            preds = model(input_samples)

            # LOSS
            loss = loss_fct(preds, gt_samples)
            train_loss_total += loss.item()

            # UPDATE OPTIMIZER
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            num_steps += 1

        print("Epoch {} training loss: {:.4f}. ({:.2f} s)".format(
            epoch, train_loss_total / num_steps, time.time() - start_time))
    return model
