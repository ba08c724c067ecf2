import torch
from torch import optim
import numpy as np
import sys
import datetime
from copy import deepcopy
import evals
from utils import build_path, get_label, get_feat, load_data, load_idx, SummaryWriter, THRESHOLDS
from model import VAE, compute_loss


device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
sys.path.append('./')

METRICS = ['ACC', 'HA', 'ebF1', 'miF1', 'maF1']


def train(args):
    np.random.seed(args.seed)  # set the random seed of numpy
    torch.manual_seed(args.seed)

    print('reading npy...')
    data = load_data(args.data_dir, label_dim=args.label_dim, feature_dim=args.feature_dim)  # load data from the data_dir
    train_idx = load_idx(args.train_idx)  # load the indices of the training set
    valid_idx = load_idx(args.valid_idx)  # load the indices of the validation set

    param_setting = "lr-{}_nll-{:.2f}_c-{:.2f}".format(args.learning_rate, args.nll_coeff, args.c_coeff)
    summary_dir = 'summary/{}/{}'.format(args.dataset, param_setting)
    model_dir = 'model/model_{}/{}'.format(args.dataset, param_setting)
    build_path(model_dir)

    one_epoch_iter = np.ceil(len(train_idx) / args.batch_size)  # compute the number of iterations in each epoch

    writer = SummaryWriter(log_dir=summary_dir)

    print('building network...')

    # building the model
    vae = VAE(args).to(device)
    vae.train()

    optimizer = optim.Adam(vae.parameters(), lr=args.learning_rate, weight_decay=1e-5)
    current_step = 0

    # smooth means average. Every batch has a mean loss value w.r.t. different losses
    smooth_nll_loss = 0.0  # label encoder decoder cross entropy loss
    smooth_nll_loss_x = 0.0  # feature encoder decoder cross entropy loss
    smooth_kl_loss = 0.0  # kl divergence
    smooth_total_loss = 0.0  # total loss
    smooth_macro_f1 = 0.0  # macro_f1 score
    smooth_micro_f1 = 0.0  # micro_f1 score

    best_macro_f1 = 0.0  # best macro f1 for ckpt selection in validation

    temp_label = []
    temp_pred_x = []

    # training the model
    for one_epoch in range(args.max_epoch):
        print('epoch ' + str(one_epoch + 1) + ' starts!')
        np.random.shuffle(train_idx)  # random shuffle the training indices

        for i in range(int(len(train_idx) / float(args.batch_size)) + 1):
            optimizer.zero_grad()
            start = i * args.batch_size
            end = min(args.batch_size * (i + 1), len(train_idx))
            if start >= end:
                continue
            input_feat = get_feat(data, train_idx[start:end], args.meta_offset, args.label_dim, args.feature_dim)  # get the features
            input_label = get_label(data, train_idx[start:end], args.meta_offset, args.label_dim)  # get the ground-truth labels
            input_feat, input_label = torch.from_numpy(input_feat).to(device), torch.from_numpy(input_label)
            input_label = deepcopy(input_label).float().to(device)
            output = vae(input_label, input_feat)

            total_loss, nll_loss, nll_loss_x, c_loss, c_loss_x, kl_loss, cpc_loss, latent_cpc_loss, feat_recon_loss, _, pred_x = compute_loss(
                input_label, output, args, one_epoch)

            total_loss.backward()
            optimizer.step()

            train_metrics = evals.compute_metrics(pred_x.cpu().data.numpy(), input_label.cpu().data.numpy(), 0.5, all_metrics=False)
            macro_f1, micro_f1 = train_metrics['maF1'], train_metrics['miF1']

            smooth_nll_loss += nll_loss
            smooth_nll_loss_x += nll_loss_x
            smooth_kl_loss += kl_loss
            smooth_total_loss += total_loss
            smooth_macro_f1 += macro_f1
            smooth_micro_f1 += micro_f1

            temp_label.append(input_label)  # log the labels
            temp_pred_x.append(pred_x)  # log the individual prediction of the probability on each label

            current_step += 1

            if current_step % args.check_freq == 0:  # summarize the current training status and print them out
                nll_loss = smooth_nll_loss / float(args.check_freq)
                nll_loss_x = smooth_nll_loss_x / float(args.check_freq)
                kl_loss = smooth_kl_loss / float(args.check_freq)
                total_loss = smooth_total_loss / float(args.check_freq)
                macro_f1 = smooth_macro_f1 / float(args.check_freq)
                micro_f1 = smooth_micro_f1 / float(args.check_freq)

                temp_pred_x = np.reshape(np.array(temp_pred_x), (-1))
                temp_label = np.reshape(np.array(temp_label), (-1))

                time_str = datetime.datetime.now().isoformat()
                print("step=%d  %s\nmacro_f1=%.6f, micro_f1=%.6f\nnll_loss=%.6f\tnll_loss_x=%.6f\tkl_loss=%.6f\ttotal_loss=%.6f\n" % (
                    current_step, time_str, macro_f1, micro_f1, nll_loss * args.nll_coeff, nll_loss_x * args.nll_coeff, kl_loss, total_loss))
                temp_pred_x = []
                temp_label = []

                smooth_nll_loss = 0
                smooth_nll_loss_x = 0
                smooth_kl_loss = 0
                smooth_total_loss = 0
                smooth_macro_f1 = 0
                smooth_micro_f1 = 0

            if current_step % int(one_epoch_iter * args.save_epoch) == 0:  # exam the model on validation set
                print("--------------------------------")
                current_loss, val_metrics = valid(data, vae, writer, valid_idx, current_step, args)
                if val_metrics['maF1'] > best_macro_f1:
                    print('saving model')
                    torch.save(vae.state_dict(), model_dir + '/vae-' + str(current_step))
                best_macro_f1 = max(best_macro_f1, val_metrics['maF1'])


def valid(data, vae, summary_writer, valid_idx, current_step, args):
    vae.eval()
    print("performing validation...")

    all_total_loss = 0
    all_pred_x = []
    all_label = []

    real_batch_size = min(args.batch_size, len(valid_idx))
    for i in range(int((len(valid_idx) - 1) / real_batch_size) + 1):
        start = real_batch_size * i
        end = min(real_batch_size * (i + 1), len(valid_idx))

        input_feat = get_feat(data, valid_idx[start:end], args.meta_offset, args.label_dim, args.feature_dim)
        input_label = get_label(data, valid_idx[start:end], args.meta_offset, args.label_dim)
        input_feat, input_label = torch.from_numpy(input_feat).to(device), torch.from_numpy(input_label)
        input_label = deepcopy(input_label).float().to(device)

        with torch.no_grad():
            output = vae(input_label, input_feat)
            total_loss, nll_loss, nll_loss_x, c_loss, c_loss_x, kl_loss, cpc_loss, latent_cpc_loss, feat_recon_loss, pred_e, pred_x = compute_loss(
                input_label, output, args)

        all_total_loss += total_loss * (end - start)
        all_pred_x.append(pred_x)
        all_label.append(input_label)

    # collect all predictions and ground-truths
    all_pred_x = torch.cat(all_pred_x).detach().cpu().numpy()
    all_label = torch.cat(all_label).detach().cpu().numpy()
    total_loss = all_total_loss / len(valid_idx)

    best_val_metrics = None
    for threshold in THRESHOLDS:
        val_metrics = evals.compute_metrics(all_pred_x, all_label, threshold, all_metrics=True)
        if best_val_metrics is None:
            best_val_metrics = {metric: val_metrics[metric] for metric in METRICS}
        else:
            for metric in METRICS:
                best_val_metrics[metric] = max(best_val_metrics[metric], val_metrics[metric])

    summary_writer.add_scalar('valid/total_loss', total_loss, current_step)
    summary_writer.add_scalar('valid/macro_f1', best_val_metrics['maF1'], current_step)
    print("valid macro_f1=%.6f" % best_val_metrics['maF1'])

    vae.train()
    return total_loss, best_val_metrics
